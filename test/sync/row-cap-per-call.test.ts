import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/fulfillmentClient.ts';
import type { Config } from '../../src/config/types.ts';
import { OPEN_RETURNS_WINDOW, returnsStream } from '../../src/streams/returns.ts';
import { OPEN_WINDOW_FILTER, transfersInStream } from '../../src/streams/transfersIn.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Scope, StreamDefinition, Window } from '../../src/sync/types.ts';
import {
  ok,
  type RecordedRequest,
  type RecordingServer,
  startRecordingServer,
} from '../api/helpers/recordingServer.ts';
import { testClient } from '../api/helpers/testClient.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * FULFILLMENT_MAX_ROWS_PER_WINDOW caps each upstream call, never a window's total: the windows
 * that follow open records make several calls (one per open status, then one per record that left
 * the lists), none of which can be narrowed by splitting the window. At 5,000 open rows a cap on
 * their sum failed those windows on every run. Through the production client against a scripted
 * upstream: calls under the cap that add up to more land whole; one call at the cap fails its
 * window alone, saying which setting to raise.
 */

const CAP = 5;
const PER_CALL = CAP - 1;
const logger = pino({ level: 'silent' });
const now = new Date('2026-06-10T19:00:00Z');
const supplier = { kind: 'supplier' as const, id: 'SUPCAP' };
const account = { kind: 'account' as const, id: 'ACCCAP' };
const openReturns: Window = { ...OPEN_RETURNS_WINDOW, start: now, end: now };
const openIns: Window = { kind: 'filter', start: now, end: now, filter: OPEN_WINDOW_FILTER };

let t: TestDatabase;
let config: Config;
let server: RecordingServer;
beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
  config = { ...config, api: { ...config.api, maxRowsPerWindow: CAP } };
  server = await startRecordingServer();
});
afterAll(async () => {
  await server?.close();
  await t?.close();
});
beforeEach(() => server.reset());

/** The production client with the cap as the worker builds it from the configuration. */
const client = () => testClient(server.url, { maxRowsPerCall: config.api.maxRowsPerWindow });

function ret(id: number, status: string) {
  return {
    shipReturnId: id,
    orderNumber: `ORD-${id}`,
    trackingNumber: `TRK-${id}`,
    processingStatusCode: status,
    returnDate: '2026-06-01T10:00:00',
    lineItems: [],
  };
}

function transferIn(orderNumber: string, statusCode: string) {
  return {
    supplierId: supplier.id,
    orderNumber,
    statusCode,
    submittedDate: '2026-06-01T10:00:00',
    lastUpdateDate: '2026-06-01T10:00:00',
  };
}

/** `count` returns per open status, ids from `base`; `resolved` ids answer only by order number. */
function returnsUpstream(count: (status: string) => number, resolved: ReadonlySet<number> = new Set()) {
  return (r: RecordedRequest) => {
    if (!r.path.endsWith('/Shipments/Returns')) return ok([]);
    if (r.query.orderNumber) {
      const id = Number(r.query.orderNumber.slice('ORD-'.length));
      return ok([ret(id, resolved.has(id) ? 'RESOLVED' : 'IN_PROCESS')]);
    }
    const status = r.query.statusCode;
    if (!status) return ok([ret(999, 'NEW')]); // a day window
    const base = status === 'NEW' ? 100 : 200;
    const ids = Array.from({ length: count(status) }, (_, i) => base + i).filter((id) => !resolved.has(id));
    return ok(ids.map((id) => ret(id, status)));
  };
}

const stored = async (sql: string, params: unknown[]) => (await t.pool.query(sql, params)).rows;
/** One run of `stream` for `scope` over `windows`, against the test upstream. */
const syncWindows = <R>(stream: StreamDefinition<R, FulfillmentClient>, scope: Scope, windows: Window[]) =>
  runStream({ pool: t.pool, client: client(), config, logger, stream, scope, now, windows });

describe('the row cap applies to each call of a multi-call window', () => {
  it('returns: open-status calls and follow-ups that together exceed the cap land whole', async () => {
    server.fallback(returnsUpstream(() => PER_CALL));
    const first = await syncWindows(returnsStream, account, [openReturns]);
    expect(first).toMatchObject({ status: 'succeeded', inserted: 2 * PER_CALL });
    expect(first.fetched).toBeGreaterThan(CAP);

    // Three returns resolved: they leave the status lists and are followed up by order number.
    const resolved = new Set([100, 101, 200]);
    server.fallback(returnsUpstream(() => PER_CALL, resolved));
    const second = await syncWindows(returnsStream, account, [openReturns]);
    expect(second).toMatchObject({ status: 'succeeded', updated: resolved.size });
    expect(second.fetched).toBeGreaterThan(CAP);
    const byOrder = server.requests.filter((r) => r.query.orderNumber).map((r) => r.query.orderNumber);
    expect(byOrder.sort()).toEqual(['ORD-100', 'ORD-101', 'ORD-200']);
    expect(
      await stored(
        `SELECT ship_return_id::int AS id FROM fulfillment.returns
          WHERE account_number = $1 AND processing_status_code = 'RESOLVED' ORDER BY 1`,
        [account.id],
      ),
    ).toEqual([{ id: 100 }, { id: 101 }, { id: 200 }]);
  });

  it('transfers_in: the open-status calls together exceed the cap and land whole', async () => {
    const scope = supplier;
    server.fallback((r) => {
      const detail = /\/Transfers\/INs\/[^/]+\/([^/]+)$/.exec(r.path);
      if (detail) {
        const orderNumber = decodeURIComponent(detail[1] as string);
        const status = orderNumber.split('-')[1] as string;
        return ok({ header: transferIn(orderNumber, status), lineItems: [], notes: [] });
      }
      const status = r.query.statusCode;
      if (!status) return ok([]);
      return ok(Array.from({ length: PER_CALL }, (_, i) => transferIn(`IN-${status}-${i}`, status)));
    });
    const result = await syncWindows(transfersInStream, scope, [openIns]);
    expect(result).toMatchObject({ status: 'succeeded', inserted: 3 * PER_CALL, fetched: 3 * PER_CALL });
    expect(
      await stored('SELECT count(*)::int AS n FROM fulfillment.transfers_in WHERE supplier_id = $1', [
        scope.id,
      ]),
    ).toEqual([{ n: 3 * PER_CALL }]);
  });

  it('one call at the cap fails its window alone, naming FULFILLMENT_MAX_ROWS_PER_WINDOW', async () => {
    const scope = { kind: 'account' as const, id: 'ACCOVER' };
    // IN_PROCESS answers the cap itself: an answer that may have been cut there.
    server.fallback(returnsUpstream((status) => (status === 'IN_PROCESS' ? CAP : 1)));
    const day: Window = {
      kind: 'day',
      start: new Date('2026-06-01T07:00:00Z'),
      end: new Date('2026-06-02T07:00:00Z'),
      advanceTo: new Date('2026-06-02T07:00:00Z'),
    };
    const result = await syncWindows(returnsStream, scope, [day, openReturns]);
    expect(result.status).toBe('failed');
    expect(result.error).toContain('FULFILLMENT_MAX_ROWS_PER_WINDOW');
    expect(result.error).toContain(`${CAP} rows`);
    expect(result.error).not.toMatch(/maxRowsPerWindow|config\.api/);
    // The day window before it landed, cursor and all; only the open window failed.
    const runs = await stored(
      'SELECT status, window_start IS NOT NULL AS timed FROM sync.runs WHERE scope = $1 ORDER BY id',
      [scope.id],
    );
    expect(runs).toEqual([
      { status: 'succeeded', timed: true },
      { status: 'failed', timed: false },
    ]);
    expect(
      await stored('SELECT ship_return_id::int AS id FROM fulfillment.returns WHERE account_number = $1', [
        scope.id,
      ]),
    ).toEqual([{ id: 999 }]);
    expect(
      await stored('SELECT position_at FROM sync.cursors WHERE stream = $1 AND scope = $2', [
        'returns',
        scope.id,
      ]),
    ).toEqual([{ position_at: day.advanceTo }]);
  });
});
