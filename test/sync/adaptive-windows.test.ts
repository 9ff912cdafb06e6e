import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/types.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { StreamRunResult } from '../../src/sync/types.ts';
import { type SyncHarness, simulatorClient, startSyncHarness } from '../helpers/syncHarness.ts';
import { warehouseMismatches } from '../helpers/warehouseTruth.ts';

/**
 * Adaptive windows: a read starts with the largest window the stream allows (a month of shipment
 * updates); while the upstream's row cap refuses or cuts the answers, it halves until they fit,
 * lands everything, and remembers the size that worked; once answers are small again the size
 * doubles back, run by run. Two upstreams: one that answers 413 over its cap (our own cap stays at
 * its default), and one that silently truncates at its cap (which we then know as ours).
 */

const logger = pino({ level: 'silent' });
const START = new Date('2026-05-04T15:00:00Z');
const HISTORY_DAYS = 3;
const MONTH = 31 * 1440;
const UPSTREAM_CAP = 15;

const upstreams = [
  { name: 'an upstream answering 413 over its row cap', rowCapMode: 'error', env: {} },
  {
    name: 'an upstream truncating silently at its row cap',
    rowCapMode: 'truncate',
    env: { FULFILLMENT_MAX_ROWS_PER_WINDOW: String(UPSTREAM_CAP) },
  },
] as const;

describe.each(upstreams)('adaptive windows against $name', ({ rowCapMode, env }) => {
  let h: SyncHarness;

  beforeAll(async () => {
    h = await startSyncHarness(
      { seed: 5, start: START, volume: { historyDays: HISTORY_DAYS }, rowCap: UPSTREAM_CAP, rowCapMode },
      {
        ...env,
        FULFILLMENT_SYNC_START: new Date(START.getTime() - HISTORY_DAYS * 86_400_000).toISOString(),
      },
    );
  }, 120_000);
  afterAll(() => h?.close());

  async function syncShipments(config: Config): Promise<StreamRunResult[]> {
    const client = simulatorClient(h.sim, config);
    const results: StreamRunResult[] = [];
    for (const account of h.sim.truth().accounts) {
      const result = await runStream({
        pool: h.t.pool,
        client,
        config,
        logger,
        stream: shipmentsStream,
        scope: { kind: 'account', id: account },
        now: new Date(h.sim.clock.now()),
      });
      expect(result.status, result.error).toBe('succeeded');
      results.push(result);
    }
    return results;
  }

  async function rememberedSizes(): Promise<number[]> {
    const res = await h.t.pool.query(
      "SELECT (position->>'windowSize')::int AS size FROM sync.cursors WHERE stream = 'shipments' ORDER BY scope",
    );
    return res.rows.map((r) => r.size as number);
  }

  it('shrink while answers are over the row cap, land everything, and remember the size that worked', async () => {
    const results = await syncShipments(h.config);
    expect(results.map((r) => r.windowSize?.planned)).toEqual(results.map(() => MONTH));
    const sizes = await rememberedSizes();
    for (const size of sizes) expect(size).toBeLessThan(MONTH);
    const splits = await h.t.pool.query(
      "SELECT count(*)::int AS n FROM sync.runs WHERE stream = 'shipments' AND details ? 'splitFrom'",
    );
    expect(splits.rows[0].n).toBeGreaterThan(0);
    expect(await warehouseMismatches(h.t.pool, h.sim.truth(), { streams: ['shipments'] })).toEqual([]);

    // The next run plans with the remembered size.
    h.sim.advance(120);
    const next = await syncShipments(h.config);
    expect(next.map((r) => r.windowSize?.planned)).toEqual(sizes);
    expect(await warehouseMismatches(h.t.pool, h.sim.truth(), { streams: ['shipments'] })).toEqual([]);
  });

  it('grow back, doubling run by run, once answers are small again', async () => {
    // The upstream lifts its cap, and our own is the default again: answers are now small.
    h.sim.setRowCap(undefined);
    const roomy: Config = { ...h.config, api: { ...h.config.api, maxRowsPerWindow: 5000 } };
    const history: number[][] = [await rememberedSizes()];
    for (let i = 0; i < 12 && history.at(-1)?.some((s) => s < MONTH); i += 1) {
      h.sim.advance(30);
      await syncShipments(roomy);
      history.push(await rememberedSizes());
    }
    const first = history[0] as number[];
    const last = history.at(-1) as number[];
    expect(last).toEqual(first.map(() => MONTH));
    // Each step at most doubles.
    for (let i = 1; i < history.length; i += 1) {
      const before = history[i - 1] as number[];
      for (const [scope, size] of (history[i] as number[]).entries())
        expect(size).toBeLessThanOrEqual(Math.max(2 * (before[scope] as number), 1));
    }
    const grown = await h.t.pool.query(
      "SELECT details->'windowSize'->>'reason' AS reason FROM sync.runs WHERE details ? 'windowSize' ORDER BY id DESC LIMIT 1",
    );
    expect(grown.rows[0].reason).toMatch(/well under the row cap/);
    expect(await warehouseMismatches(h.t.pool, h.sim.truth(), { streams: ['shipments'] })).toEqual([]);
  });
});
