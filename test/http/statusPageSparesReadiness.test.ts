import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { postgresReady } from '../../src/http/readiness.ts';
import { createStatusReadModel } from '../../src/http/status/readModel.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * The status page reads on the worker's small pool of readiness and metrics (two connections). A
 * page that is slow to read (a busy endpoint's 24 h of attempts: a million of them take the read
 * model about 2 s here) must only slow itself: two browser tabs refreshing it, or an impatient
 * reload, must not take every connection and fail /readyz, which an orchestrator acts on. The slow
 * read is made deterministic here by a lock the test holds on a table the page reads.
 */

let t: TestDatabase;
let pool: pg.Pool;
let blocker: pg.Client;
const auth = { authorization: `Basic ${Buffer.from('ops:secret').toString('base64')}` };

beforeAll(async () => {
  t = await createTestDatabase();
  // Like the worker's `ops` pool.
  pool = new pg.Pool({ connectionString: t.url, max: 2 });
  blocker = new pg.Client({ connectionString: t.url });
  await blocker.connect();
});
afterAll(async () => {
  await blocker?.end().catch(() => undefined);
  await pool?.end();
  await t?.close();
});

async function waitingOnLock(): Promise<number> {
  const { rows } = await t.pool.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`,
    [t.name],
  );
  return rows[0]?.n ?? 0;
}

describe('status page beside readiness', () => {
  it('three loads of a slow page at once leave /readyz ready', async () => {
    const config = loadConfig({ DATABASE_URL: t.url, FULFILLMENT_SUPPLIER_IDS: 'SUP1' });
    const app = createHttpApp({
      readiness: { postgres: () => postgresReady(pool) },
      dashboard: { user: 'ops', password: 'secret' },
      status: createStatusReadModel(pool, config),
    });
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE sync.cursors IN ACCESS EXCLUSIVE MODE');
    const pages = [1, 2, 3].map(() => app.request('/status', { headers: auth }));
    await waitFor('a status read to wait on the lock', async () => (await waitingOnLock()) >= 1);
    const ready = await app.request('/readyz');
    const body = await ready.json();
    await blocker.query('COMMIT');
    const answered = await Promise.all(pages);
    expect(answered.map((r) => r.status)).toEqual([200, 200, 200]);
    expect({ status: ready.status, body }).toMatchObject({ status: 200, body: { status: 'ready' } });
  });
});
