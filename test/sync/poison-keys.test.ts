import { createHash } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/types.ts';
import { invoicesStream } from '../../src/streams/invoices.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import { ok, type RecordingServer, startRecordingServer } from '../api/helpers/recordingServer.ts';
import { testClient } from '../api/helpers/testClient.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * A poison value in a record's key field never fails its window. Postgres refuses a NUL in text
 * and an index entry over about a third of a page; either refusal would roll back the whole
 * window, run after run, so no invoice of the account would land and the cursor would never move.
 * Through the production client (which repairs text) and runStream: the NUL key lands repaired
 * and noted, the 80 KB key is quarantined with its reason, the siblings land and the cursor moves.
 */

const logger = pino({ level: 'silent' });
const account = { kind: 'account' as const, id: 'ACCKEY' };
/** 80 KB that do not compress: Postgres would squeeze a run of zeros under its index row limit. */
const HUGE_KEY = `INV-HUGE-${Array.from({ length: 2560 }, (_, i) => createHash('sha256').update(String(i)).digest('hex').slice(0, 32)).join('')}`;
const window: Window = {
  kind: 'day',
  start: new Date('2026-06-01T07:00:00Z'),
  end: new Date('2026-06-02T06:59:00Z'),
  advanceTo: new Date('2026-06-02T07:00:00Z'),
};

let t: TestDatabase;
let config: Config;
let server: RecordingServer;
beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
  server = await startRecordingServer();
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});

const invoice = (invoiceNumber: string) => ({
  invoiceNumber,
  accountNumber: account.id,
  invoiceDate: '2026-06-01',
  totalInvoiceAmount: 10,
  balanceDue: 10,
});

const rows = async (sql: string) => (await t.pool.query(sql, [account.id])).rows;
/** One invoices run of the account over `window`, against the test upstream. */
const syncInvoices = () =>
  runStream({
    pool: t.pool,
    client: testClient(server.url),
    config,
    logger,
    stream: invoicesStream,
    scope: account,
    windows: [window],
  });

describe('a poison value in a key field', () => {
  it('a NUL is removed and noted, an 80 KB key is quarantined; the rest lands and the cursor moves', async () => {
    server.fallback(() =>
      ok([invoice('INV-A'), invoice('INV-\u0000NUL'), invoice(HUGE_KEY), invoice('INV-B')]),
    );
    const result = await syncInvoices();
    expect(result).toMatchObject({ status: 'partial', inserted: 3, rejected: 1, repaired: 1 });
    expect(
      await rows('SELECT invoice_number FROM fulfillment.invoices WHERE account_number = $1 ORDER BY 1'),
    ).toEqual([{ invoice_number: 'INV-A' }, { invoice_number: 'INV-B' }, { invoice_number: 'INV-NUL' }]);
    expect(
      await rows(
        `SELECT kind, left(record_key, 20) AS key, reason FROM sync.rejected_records
          WHERE scope = $1 ORDER BY kind`,
      ),
    ).toEqual([
      {
        kind: 'quarantined',
        key: HUGE_KEY.slice(0, 20),
        reason: `key is ${HUGE_KEY.length} bytes long (at most 2000 can be indexed)`,
      },
      { kind: 'repaired', key: 'INV-NUL', reason: 'NUL removed from invoiceNumber' },
    ]);
    expect(await rows('SELECT position_at FROM sync.cursors WHERE scope = $1')).toEqual([
      { position_at: window.advanceTo },
    ]);

    // Read again unchanged: nothing rewritten, and each problem stays one row, counted.
    const again = await syncInvoices();
    expect(again).toMatchObject({ status: 'partial', inserted: 0, updated: 0, unchanged: 3 });
    expect(await rows('SELECT occurrences FROM sync.rejected_records WHERE scope = $1')).toEqual([
      { occurrences: 2 },
      { occurrences: 2 },
    ]);
  });
});
