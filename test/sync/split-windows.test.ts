import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerTooLargeError, RetryableUpstreamError } from '../../src/api/errors.ts';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { Config } from '../../src/config/types.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * A window whose answer is too large is read in halves, each written in its own transaction before
 * the next is fetched: memory holds one call's answer, and a failure in a later half keeps what the
 * earlier halves stored, with the cursor where they left it.
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'account' as const, id: 'ACCS' };
const start = new Date('2026-06-01T08:00:00Z');
const window: Window = {
  kind: 'minute',
  start,
  end: new Date(start.getTime() + 4 * 3_600_000),
  advanceTo: new Date(start.getTime() + 4 * 3_600_000),
};

let t: TestDatabase;
let config: Config;
beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

describe('split windows', () => {
  it('writes each half before fetching the next; a failing later half keeps the earlier ones and their cursor', async () => {
    const asked: string[] = [];
    let failAfter = true;
    const client = {
      listShipmentUpdates: async (q: { beginDate: string; endDate: string }) => {
        asked.push(`${q.beginDate}..${q.endDate}`);
        const hours = (Date.parse(`${q.endDate}:00Z`) - Date.parse(`${q.beginDate}:00Z`)) / 3_600_000;
        if (hours > 2)
          // What the client raises for a 413 (src/api/classify.ts).
          throw new AnswerTooLargeError('HTTP 413: Request too large: narrow the date range', {
            operation: 'GET Shipments/Updates',
            status: 413,
            upstreamMessage: 'Request too large: narrow the date range',
          });
        if (failAfter && asked.length === 3)
          throw new RetryableUpstreamError('HTTP 503 after 3 attempts', {
            operation: 'x',
            kind: 'http-status',
            status: 503,
          });
        // The first half's rows must already be stored when the second half is asked for.
        const stored = await t.pool.query('SELECT count(*)::int AS n FROM fulfillment.shipments');
        return {
          records: [
            { header: shipmentHeader(`C${asked.length}-${stored.rows[0].n}`), lineItems: [], events: [] },
          ],
          rejected: [],
        };
      },
    } as unknown as FulfillmentClient;
    const run = () =>
      runStream({
        pool: t.pool,
        client,
        config,
        logger,
        stream: shipmentsStream,
        scope,
        windows: [window],
        now: window.end,
      });

    const first = await run();
    expect(first.status).toBe('failed');
    expect(asked).toHaveLength(3);
    const cursor = await t.pool.query("SELECT position_at FROM sync.cursors WHERE stream = 'shipments'");
    expect(cursor.rows[0].position_at).toEqual(new Date(start.getTime() + 2 * 3_600_000));
    expect((await t.pool.query('SELECT container_id FROM fulfillment.shipments')).rows).toEqual([
      { container_id: 'C2-0' },
    ]);

    failAfter = false;
    asked.length = 0;
    expect((await run()).status).toBe('succeeded');
    expect(
      (await t.pool.query('SELECT container_id FROM fulfillment.shipments ORDER BY 1')).rows.map(
        (r) => r.container_id,
      ),
    ).toEqual(['C2-0', 'C2-1', 'C3-2']);
    const runs = await t.pool.query(
      "SELECT details FROM sync.runs WHERE stream = 'shipments' AND status = 'succeeded' ORDER BY id DESC LIMIT 2",
    );
    expect(JSON.stringify(runs.rows.map((r) => r.details))).toMatch(/splitFrom/);
  });
});
