import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { createStatusReadModel } from '../../src/http/status/readModel.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * The status page's "Last error (24 h)" of a stream and scope whose newest run failed must show
 * that error however many other runs failed since: during an upstream outage every scope fails,
 * and the streams polled often (a failure a minute each) must not push the error of a stream
 * polled rarely (invoices, products) off the page, when it is the one an operator looks for.
 */

let t: TestDatabase;
const NOW = new Date();
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

beforeAll(async () => {
  t = await createTestDatabase();
  // Invoices of 1001 last succeeded two hours ago; its run 20 minutes ago failed.
  await t.pool.query(
    `INSERT INTO sync.cursors (stream, scope, last_success_at) VALUES ('invoices', '1001', $1)`,
    [ago(7200)],
  );
  await t.pool.query(
    `INSERT INTO sync.runs (stream, scope, started_at, finished_at, status, error)
     VALUES ('invoices', '1001', $1, $1, 'failed', 'GET Finances/invoices: HTTP 503; will be retried')`,
    [ago(1200)],
  );
  // Since then, the outage failed 1,200 runs of shipments across 100 accounts (12 minutes of
  // one-minute polls).
  await t.pool.query(
    `INSERT INTO sync.runs (stream, scope, started_at, finished_at, status, error)
     SELECT 'shipments', (2000 + g % 100)::text, $1::timestamptz + g * interval '500 ms',
            $1::timestamptz + g * interval '500 ms', 'failed', 'GET Shipments/Updates: HTTP 503'
       FROM generate_series(1, 1200) g`,
    [ago(700)],
  );
});
afterAll(async () => {
  await t?.close();
});

describe('status page during an outage', () => {
  it('shows the error of a stream whose newest run failed, whatever failed after it elsewhere', async () => {
    const config = loadConfig({ DATABASE_URL: t.url, FULFILLMENT_ACCOUNT_NUMBERS: '1001' });
    const snapshot = await createStatusReadModel(t.pool, config, () => NOW)();
    const invoices = snapshot.streams.find((s) => s.stream === 'invoices' && s.scope === '1001');
    expect(invoices?.lastRunStatus).toBe('failed');
    expect(invoices?.lastError).toBe('GET Finances/invoices: HTTP 503; will be retried');
    expect(invoices?.lastErrorAt?.getTime()).toBe(ago(1200).getTime());
  });
});
