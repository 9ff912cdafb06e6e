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
 * A window whose answer is too large is read in parts (halves of halves), each written in its own
 * transaction. The pipeline fetches a part while the one before it is still being prepared and
 * written, never further ahead: memory holds at most two answers, however many parts a backfill
 * has, and a failure in a later part keeps what the earlier parts stored, with the cursor where
 * they left it.
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'account' as const, id: 'ACCS' };
const start = new Date('2026-06-01T08:00:00Z');
const HOUR = 3_600_000;
const window: Window = {
  kind: 'minute',
  start,
  end: new Date(start.getTime() + 4 * HOUR),
  advanceTo: new Date(start.getTime() + 4 * HOUR),
};

let t: TestDatabase;
let config: Config;
beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

describe('split windows', () => {
  it('is at most one part ahead of what is written; a failing later part keeps the earlier ones and their cursor', async () => {
    const asked: string[] = [];
    /** For each part answered: how many parts were stored when it was asked for. */
    const storedWhenAsked: number[] = [];
    let failAfter = true;
    const client = {
      listShipmentUpdates: async (q: { beginDate: string; endDate: string }) => {
        asked.push(`${q.beginDate}..${q.endDate}`);
        const hours = (Date.parse(`${q.endDate}:00Z`) - Date.parse(`${q.beginDate}:00Z`)) / 3_600_000;
        if (hours > 1)
          // What the client raises for a 413 (src/api/classify.ts).
          throw new AnswerTooLargeError('HTTP 413: Request too large: narrow the date range', {
            operation: 'GET Shipments/Updates',
            status: 413,
            upstreamMessage: 'Request too large: narrow the date range',
          });
        // Calls: 4 h and 2 h too large, then 1 h, 1 h, 2 h too large, 1 h (fails the first time), 1 h.
        if (failAfter && asked.length === 6)
          throw new RetryableUpstreamError('HTTP 503 after 3 attempts', {
            operation: 'x',
            kind: 'http-status',
            status: 503,
          });
        const stored = await t.pool.query(
          "SELECT count(*)::int AS n FROM sync.runs WHERE stream = 'shipments' AND status = 'succeeded'",
        );
        storedWhenAsked.push(stored.rows[0].n);
        return {
          // The second run's answers differ from the first's: each part it stores writes a run row
          // (an unchanged re-read is an empty poll and writes none).
          records: [
            {
              header: shipmentHeader(`C-${q.beginDate}`, failAfter ? 'SHIPPED' : 'DELIVERED'),
              lineItems: [],
              events: [],
            },
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
    expect(asked).toHaveLength(6);
    // The two parts before the failing one were written, and the cursor moved over them only.
    const cursor = await t.pool.query("SELECT position_at FROM sync.cursors WHERE stream = 'shipments'");
    expect(cursor.rows[0].position_at).toEqual(new Date(start.getTime() + 2 * HOUR));
    const ids = async () =>
      (await t.pool.query('SELECT container_id FROM fulfillment.shipments ORDER BY 1')).rows.map(
        (r) => r.container_id as string,
      );
    expect(await ids()).toEqual(['C-2026-06-01T01:00', 'C-2026-06-01T02:00']);
    // The failure is the third hour's, the half being fetched, not the part stored before it.
    const failed = await t.pool.query(
      "SELECT window_start, window_end, error FROM sync.runs WHERE stream = 'shipments' AND status = 'failed'",
    );
    expect(failed.rows).toEqual([
      expect.objectContaining({
        window_start: new Date(start.getTime() + 2 * HOUR),
        window_end: new Date(start.getTime() + 3 * HOUR),
      }),
    ]);

    failAfter = false;
    asked.length = 0;
    storedWhenAsked.length = 0;
    expect((await run()).status).toBe('succeeded');
    expect(await ids()).toEqual([
      'C-2026-06-01T01:00',
      'C-2026-06-01T02:00',
      'C-2026-06-01T03:00',
      'C-2026-06-01T04:00',
    ]);
    // Part k is asked for only once part k-2 is written (2 runs stored by the first run already):
    // never more than two answers in hand.
    expect(storedWhenAsked).toHaveLength(4);
    for (const [k, stored] of storedWhenAsked.entries())
      expect(stored).toBeGreaterThanOrEqual(2 + Math.max(0, k - 1));
    const runs = await t.pool.query(
      "SELECT details FROM sync.runs WHERE stream = 'shipments' AND status = 'succeeded' ORDER BY id DESC LIMIT 2",
    );
    expect(JSON.stringify(runs.rows.map((r) => r.details))).toMatch(/splitFrom/);
  });
});
