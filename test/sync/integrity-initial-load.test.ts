import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { ShipmentUpdate } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { EventSink, Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * A scope's initial load lasts until a run has stored all of its planned windows, not merely until
 * its first successful window: the rest of a 30-day history interrupted by a failure must not be
 * delivered later as live events.
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'account' as const, id: 'ACCI' };
const HOUR = 3_600_000;
const base = Date.parse('2026-06-01T00:00:00Z');
const hour = (i: number): Window => ({
  kind: 'minute',
  start: new Date(base + i * HOUR),
  end: new Date(base + (i + 1) * HOUR),
  advanceTo: new Date(base + (i + 1) * HOUR),
});

function shipment(id: string): ShipmentUpdate {
  return {
    header: shipmentHeader(id),
    lineItems: [{ containerId: id, lineNumber: 1, sku: 'SKU1', quantity: 2 }],
    events: [],
  };
}

let t: TestDatabase;
let config: Config;
let failAt: string | undefined;
const client = {
  // Each window answers one new shipment named after its start; `failAt` fails that window.
  listShipmentUpdates: async (q: { beginDate: string }) => {
    if (failAt && q.beginDate.startsWith(failAt)) throw new Error('HTTP 503 after 3 attempts');
    return { records: [shipment(`S-${q.beginDate}`)], rejected: [] };
  },
} as unknown as FulfillmentClient;
const seen: boolean[] = [];
const eventSink: EventSink = async ({ policy, changes }) => {
  seen.push(policy.initialLoad);
  return changes.length;
};

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

const run = (windows: Window[]) =>
  runStream({ pool: t.pool, client, config, logger, stream: shipmentsStream, scope, windows, eventSink });

describe('initial load across runs', () => {
  it('stays an initial load until a run stores all its planned windows', async () => {
    // The first run stores hour 0 and fails at hour 1.
    failAt = '2026-05-31T18:00'; // hour 1 (01:00Z) in the Pacific zone of beginDate
    const first = await run([hour(0), hour(1), hour(2)]);
    expect(first.status).toBe('failed');
    expect(first.inserted).toBe(1);
    expect(seen).toEqual([true]);

    // The next run resumes the rest of the history: still the initial load.
    failAt = undefined;
    seen.length = 0;
    expect((await run([hour(1), hour(2)])).status).toBe('succeeded');
    expect(seen).toEqual([true, true]);

    // Caught up: from now on changes are live.
    seen.length = 0;
    expect((await run([hour(3)])).status).toBe('succeeded');
    expect(seen).toEqual([false]);
  });
});
