import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { createStatusReadModel } from '../../src/http/status/readModel.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * The status page's "Withheld vanishes" of a stream and scope counts what its newest run withheld,
 * in any of its windows: a supplier read in parts (inventory by warehouse, the split a scope over
 * the row cap remembers) records one sync.runs row per part, and the part that withheld is rarely
 * the last one written.
 */

let t: TestDatabase;
const NOW = new Date();
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

beforeAll(async () => {
  t = await createTestDatabase();
  // An older run (lease fence 6) withheld nothing; the newest run (fence 7) read three warehouses:
  // the first part's answer came back empty and was not confirmed (40 rows kept), the others fine.
  await t.pool.query(
    `INSERT INTO sync.runs (stream, scope, window_start, started_at, finished_at, status, vanish_withheld, lease_fence)
     VALUES ('inventory', 'SUP1', NULL, $1, $1, 'succeeded', 0, 6),
            ('inventory', 'SUP1', NULL, $2, $2, 'succeeded', 40, 7),
            ('inventory', 'SUP1', NULL, $3, $3, 'succeeded', 0, 7),
            ('inventory', 'SUP1', NULL, $4, $4, 'succeeded', 0, 7)`,
    [ago(120), ago(12), ago(11), ago(10)],
  );
});
afterAll(async () => {
  await t?.close();
});

describe('status page of a run read in parts', () => {
  it('shows the rows its newest run withheld in an earlier part', async () => {
    const config = loadConfig({ DATABASE_URL: t.url, FULFILLMENT_SUPPLIER_IDS: 'SUP1' });
    const snapshot = await createStatusReadModel(t.pool, config, () => NOW)();
    const inventory = snapshot.streams.find((s) => s.stream === 'inventory' && s.scope === 'SUP1');
    expect(inventory?.vanishWithheld).toBe(40);
  });
});
