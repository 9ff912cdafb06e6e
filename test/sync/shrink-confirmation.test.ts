import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventSink } from '../../src/events/sink.ts';
import { inventoryStream } from '../../src/streams/inventory.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { StreamRunResult } from '../../src/sync/types.ts';
import { type RewritingProxy, rewriteTimes, startRewritingProxy } from '../helpers/rewritingProxy.ts';
import { type SyncHarness, simulatorClient, startSyncHarness } from '../helpers/syncHarness.ts';

/**
 * A snapshot that shrinks is confirmed before anything vanishes (issue 24 item 1). The simulator
 * behind a scripted proxy answers one Inventories/Owned call empty (`{isSuccess: true, message: "",
 * payload: []}`, a lagging replica or a cold cache) or with half its rows: the stored rows never
 * changed, so the sync must write no event, no inventory_history version and no zeroing. A real
 * emptying, every row gone in two reads, still lands. Real client, real Postgres, real event sink.
 */

const logger = pino({ level: 'silent' });
let s: SyncHarness;
let proxy: RewritingProxy;
let supplier: string;

const isOwnedInventory = (url: URL) => url.pathname.endsWith('/Inventories/Owned');

beforeAll(async () => {
  s = await startSyncHarness(
    { seed: 24, start: new Date('2026-03-02T08:00:00Z') },
    { FULFILLMENT_VANISH_CONFIRM_PAUSE_MS: '20' },
  );
  proxy = await startRewritingProxy(s.sim.url);
  supplier = s.sim.truth().suppliers[0] as string;
  // The initial load (its events are history), then a live run: the scope's stock is known.
  expect(await run()).toMatchObject({ status: 'succeeded' });
  expect(await run()).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0 });
});
afterAll(async () => {
  await proxy?.close();
  await s?.close();
});

function run(): Promise<StreamRunResult> {
  return runStream({
    pool: s.t.pool,
    client: simulatorClient({ ...s.sim, url: proxy.url }, s.config),
    config: s.config,
    logger,
    stream: inventoryStream,
    scope: { kind: 'supplier', id: supplier },
    now: new Date(s.sim.clock.now()),
    eventSink: createEventSink({ timezone: s.config.timezone, thresholds: s.config.events }),
  });
}

/** What a shrink could have written: inventory events, history versions, zeroed rows. */
async function written() {
  const q = async (sql: string) => (await s.t.pool.query<{ n: number }>(sql, [supplier])).rows[0]?.n ?? 0;
  return {
    events: await q(
      `SELECT count(*)::int AS n FROM sync.events WHERE type LIKE 'inventory.%' AND scope = $1`,
    ),
    history: await q('SELECT count(*)::int AS n FROM fulfillment.inventory_history WHERE supplier_id = $1'),
    zeroed: await q(
      'SELECT count(*)::int AS n FROM fulfillment.inventory WHERE supplier_id = $1 AND vanished_at IS NOT NULL',
    ),
  };
}

async function storedRows(): Promise<number> {
  const res = await s.t.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM fulfillment.inventory WHERE supplier_id = $1 AND vanished_at IS NULL',
    [supplier],
  );
  return res.rows[0]?.n ?? 0;
}

describe('a shrinking inventory snapshot', () => {
  it('holds enough rows for the half-answer case to be a large shrink', async () => {
    expect(await storedRows()).toBeGreaterThanOrEqual(10);
  });

  it('one empty answer changes nothing: no event, no history version, no zeroing, now or at the next run', async () => {
    const before = await written();
    proxy.rewrite = rewriteTimes(1, isOwnedInventory, () => ({ isSuccess: true, message: '', payload: [] }));
    const result = await run();
    expect(proxy.rewritten).toHaveLength(1);
    // Read again after the pause: the full answer stands, nothing was withheld either.
    expect(result).toMatchObject({ status: 'succeeded', apiCalls: 2, updated: 0 });
    expect(result.vanishWithheld).toBeUndefined();
    expect(await written()).toEqual(before);
    // The next run (a full answer) finds nothing to restock either.
    proxy.rewrite = undefined;
    await run();
    expect(await written()).toEqual(before);
  });

  it('one answer with half the rows changes nothing either', async () => {
    const before = await written();
    proxy.rewritten.length = 0;
    proxy.rewrite = rewriteTimes(1, isOwnedInventory, (body) => {
      const rows = body.payload as unknown[];
      return { ...body, payload: rows.slice(0, Math.floor(rows.length / 2)) };
    });
    const result = await run();
    expect(proxy.rewritten).toHaveLength(1);
    expect(result.status).toBe('succeeded');
    expect(await written()).toEqual(before);
    proxy.rewrite = undefined;
    await run();
    expect(await written()).toEqual(before);
  });

  it('answers that never agree withhold the vanish: nothing changes, the run log says how many rows stayed', async () => {
    const held = await storedRows();
    const before = await written();
    let call = 0;
    proxy.rewrite = (url, body) => {
      if (!isOwnedInventory(url)) return undefined;
      call += 1;
      const rows = (body as { payload: unknown[] }).payload;
      if (call === 1 || call === 3) return { ...(body as object), payload: [] };
      if (call === 2) return { ...(body as object), payload: rows.slice(0, Math.floor(rows.length / 2)) };
      return undefined;
    };
    const result = await run();
    proxy.rewrite = undefined;
    expect(call).toBe(3);
    expect(result).toMatchObject({
      status: 'succeeded',
      apiCalls: 3,
      vanishWithheld: { answers: 1, rows: held },
    });
    expect(await written()).toEqual(before);
    const logged = await s.t.pool.query('SELECT vanish_withheld, details FROM sync.runs WHERE id = $1', [
      result.lastRunId,
    ]);
    expect(logged.rows[0]).toMatchObject({
      vanish_withheld: held,
      details: {
        vanishWithheld: { keptRows: held, heldRows: held, answerRows: [0, Math.floor(held / 2), 0] },
      },
    });
    // The next run, answered in full, decides: nothing had changed.
    expect(await run()).toMatchObject({ status: 'succeeded', updated: 0, apiCalls: 1 });
    expect(await written()).toEqual(before);
  });

  it('a real emptying, every row gone in two reads, still zeroes every row and announces it', async () => {
    const held = await storedRows();
    const before = await written();
    proxy.rewrite = (url, body) => (isOwnedInventory(url) ? { ...(body as object), payload: [] } : undefined);
    const result = await run();
    proxy.rewrite = undefined;
    expect(result).toMatchObject({ status: 'succeeded', apiCalls: 2, updated: held });
    expect(result.vanishWithheld).toBeUndefined();
    const after = await written();
    expect(after.zeroed - before.zeroed).toBe(held);
    expect(after.history - before.history).toBe(held);
    expect(after.events).toBeGreaterThan(before.events);
    expect(await storedRows()).toBe(0);
  });
});
