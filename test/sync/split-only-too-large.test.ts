import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/types.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import { ok, type RecordingServer, startRecordingServer } from '../api/helpers/recordingServer.ts';
import { testClient } from '../api/helpers/testClient.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * The engine halves a window only when the answer is too large (a 413, an explicit "narrow the
 * range" message, our own row cap, a timeout); throttling waits and retries instead, whatever
 * its message says. Real client, scripted HTTP upstream, real Postgres.
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'account' as const, id: 'ACC1' };
const window: Window = {
  kind: 'minute',
  start: new Date('2026-06-01T10:00:00Z'),
  end: new Date('2026-06-01T12:00:00Z'),
  advanceTo: new Date('2026-06-01T12:00:00Z'),
};

let t: TestDatabase;
let config: Config;
let server: RecordingServer;
beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
  await t?.close();
});
beforeEach(() => server.reset());

/** Minutes between a request's wire bounds (`yyyy-MM-ddTHH:mm`, same zone). */
function rangeMinutes(query: Record<string, string>): number {
  const at = (wall: string | undefined) => Date.parse(`${wall}:00Z`);
  return (at(query.endDate) - at(query.beginDate)) / 60_000;
}

const run = (client: ReturnType<typeof testClient>) =>
  runStream({ pool: t.pool, client, config, logger, stream: shipmentsStream, scope, windows: [window] });

describe('what splits a window', () => {
  it('"Request too large: narrow the date range" splits the window until the answers fit', async () => {
    server.fallback((request) =>
      rangeMinutes(request.query) > 40
        ? { body: { isSuccess: false, message: 'Request too large: narrow the date range', payload: null } }
        : ok([{ header: shipmentHeader(`C-${request.query.beginDate}`, 'SHIPPED') }]),
    );
    const result = await run(testClient(server.url));
    expect(result.status).toBe('succeeded');
    expect(result.inserted).toBeGreaterThan(1);
    expect(server.requests.length).toBeGreaterThan(2);
  });

  it('an isSuccess false saying the upstream query timed out splits the window, and the run lands', async () => {
    const message = 'Timeout expired. The timeout period elapsed prior to completion of the operation.';
    server.fallback((request) =>
      rangeMinutes(request.query) > 40
        ? { body: { isSuccess: false, message, payload: null } }
        : ok([{ header: shipmentHeader(`T-${request.query.beginDate}`, 'SHIPPED') }]),
    );
    const result = await run(testClient(server.url));
    expect(result).toMatchObject({ status: 'succeeded' });
    const ranges = server.requests.map((r) => rangeMinutes(r.query));
    // The whole window timed out (asked twice, as a client timeout is), then its halves fitted.
    expect(ranges.filter((m) => m > 40).length).toBeGreaterThan(0);
    expect(Math.max(...ranges.filter((m) => m <= 40))).toBeLessThanOrEqual(40);
    const stored = await t.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM fulfillment.shipments WHERE container_id LIKE 'T-%'`,
    );
    expect(stored.rows[0]!.n).toBe(result.inserted);
    expect(result.inserted).toBeGreaterThan(1);
    const cursor = await t.pool.query<{ position_at: Date }>(
      `SELECT position_at FROM sync.cursors WHERE stream = 'shipments' AND scope = 'ACC1'`,
    );
    expect(cursor.rows[0]!.position_at).toEqual(window.advanceTo);
  });

  it('a window that still times out upstream at its smallest fails naming the upstream, not our timeout', async () => {
    server.fallback(() => ({
      body: { isSuccess: false, message: 'The wait operation timed out.', payload: null },
    }));
    const small = {
      ...config,
      streams: { ...config.streams, shipments: { ...config.streams.shipments, minWindowSize: 60 } },
    };
    const result = await runStream({
      pool: t.pool,
      client: testClient(server.url),
      config: small,
      logger,
      stream: shipmentsStream,
      scope: { kind: 'account', id: 'ACC2' },
      windows: [window],
    });
    expect(result.status).toBe('failed');
    // Split down to the smallest window first, as a client timeout is.
    expect(server.requests.some((r) => rangeMinutes(r.query) <= 60)).toBe(true);
    expect(result.error).toContain('The wait operation timed out.');
    expect(result.error).not.toContain('FULFILLMENT_TIMEOUT_MS');
  });

  it('a 429 saying "Too many requests" is waited for and retried, never split', async () => {
    const waits: number[] = [];
    server.reply(
      {
        status: 429,
        headers: { 'retry-after': '2' },
        body: { isSuccess: false, message: 'Too many requests' },
      },
      ok([{ header: shipmentHeader('C-throttled', 'SHIPPED') }]),
    );
    const result = await run(testClient(server.url, { sleep: async (ms) => void waits.push(ms) }));
    expect(result.status).toBe('succeeded');
    expect(waits).toEqual([2000]);
    expect(server.requests.map((r) => rangeMinutes(r.query))).toEqual([
      rangeMinutes(server.requests[0]!.query),
      rangeMinutes(server.requests[0]!.query),
    ]);
  });

  it('throttling that outlasts the client fails the run with its Retry-After, without splitting', async () => {
    server.fallback(() => ({
      status: 429,
      headers: { 'retry-after': '120' },
      body: { isSuccess: false, message: 'Too many requests' },
    }));
    const client = testClient(server.url, {
      retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 2, maxRetryAfterMs: 1000 },
    });
    const result = await run(client);
    expect(result.status).toBe('failed');
    expect(result.retryAfterMs).toBe(120_000);
    expect(result.error).toContain('Too many requests');
    expect(result.error).not.toMatch(/too large/i);
    expect(server.requests).toHaveLength(1);
  });
});
