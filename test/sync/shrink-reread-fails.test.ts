import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventSink } from '../../src/events/sink.ts';
import { inventoryStream } from '../../src/streams/inventory.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { StreamRunResult } from '../../src/sync/types.ts';
import { type RewritingProxy, startRewritingProxy } from '../helpers/rewritingProxy.ts';
import { FAIL_FAST, type SyncHarness, simulatorClient, startSyncHarness } from '../helpers/syncHarness.ts';

/**
 * A shrinking snapshot whose re-read fails (the upstream answers 503 to every further read, after
 * the client's own retries): nothing was confirmed, so nothing vanishes and nothing is announced;
 * the run keeps the rows, says so (a withheld vanish in the run log and the log), and the next run,
 * answered in full, finds nothing changed. Simulator behind a scripted proxy, real client.
 */

const warnings: string[] = [];
const logger = pino(
  { level: 'warn' },
  {
    write: (line: string) => {
      warnings.push((JSON.parse(line) as { msg: string }).msg);
    },
  },
);
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
    client: simulatorClient({ ...s.sim, url: proxy.url }, s.config, FAIL_FAST),
    config: s.config,
    logger,
    stream: inventoryStream,
    scope: { kind: 'supplier', id: supplier },
    now: new Date(s.sim.clock.now()),
    eventSink: createEventSink({ timezone: s.config.timezone, thresholds: s.config.events }),
  });
}

async function written() {
  const q = async (sql: string) => (await s.t.pool.query<{ n: number }>(sql, [supplier])).rows[0]?.n ?? 0;
  return {
    events: await q('SELECT count(*)::int AS n FROM sync.events WHERE scope = $1 AND NOT suppressed'),
    history: await q('SELECT count(*)::int AS n FROM fulfillment.inventory_history WHERE supplier_id = $1'),
    zeroed: await q(
      'SELECT count(*)::int AS n FROM fulfillment.inventory WHERE supplier_id = $1 AND vanished_at IS NOT NULL',
    ),
  };
}

describe('an empty answer whose re-read fails', () => {
  it('vanishes nothing, announces nothing, and says it withheld the vanish', async () => {
    const before = await written();
    const held = (
      await s.t.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM fulfillment.inventory WHERE supplier_id = $1 AND vanished_at IS NULL',
        [supplier],
      )
    ).rows[0]?.n;
    let reads = 0;
    proxy.rewrite = (url, body) => {
      if (!isOwnedInventory(url)) return undefined;
      reads += 1;
      return { ...(body as object), payload: [] };
    };
    // Every call after the first empty answer: 503.
    proxy.failWith = (url) => (isOwnedInventory(url) && reads >= 1 ? 503 : undefined);
    warnings.length = 0;
    const result = await run();
    proxy.rewrite = undefined;
    proxy.failWith = undefined;
    expect(result).toMatchObject({ status: 'succeeded', vanishWithheld: { answers: 1, rows: held } });
    expect(warnings).toContain('could not read a shrinking answer again; nothing vanishes');
    expect(await written()).toEqual(before);
    // The next run, answered in full, finds nothing changed.
    expect(await run()).toMatchObject({ status: 'succeeded', updated: 0 });
    expect(await written()).toEqual(before);
  });
});
