import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventSink } from '../../src/events/sink.ts';
import { productsStream } from '../../src/streams/products.ts';
import { returnsStream } from '../../src/streams/returns.ts';
import { transfersInStream } from '../../src/streams/transfersIn.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { StreamDefinition, StreamRunResult } from '../../src/sync/types.ts';
import { type RewritingProxy, rewriteTimes, startRewritingProxy } from '../helpers/rewritingProxy.ts';
import { type SyncHarness, simulatorClient, startSyncHarness } from '../helpers/syncHarness.ts';

/**
 * Open lists are absences too (issue 24 item 1): a stored open IN or open return that an open-status
 * list no longer names is followed up by key, and the whole products listing serves the pending
 * detail requests of the products it does not list. One empty answer of those lists (a lagging
 * replica) must not set off a follow-up of every open record, nor drop the requests: the lists are
 * read again first, and only what agreeing answers omit is followed. Simulator behind a scripted
 * proxy, real client, real Postgres.
 */

const logger = pino({ level: 'silent' });
let s: SyncHarness;
let proxy: RewritingProxy;
let supplier: string;
let account: string;

const empty = (body: { isSuccess: boolean; message: unknown; payload: unknown }) => ({
  ...body,
  payload: [],
});

beforeAll(async () => {
  s = await startSyncHarness(
    { seed: 31, start: new Date('2026-03-02T08:00:00Z') },
    { FULFILLMENT_VANISH_CONFIRM_PAUSE_MS: '20' },
  );
  proxy = await startRewritingProxy(s.sim.url);
  const world = s.sim.truth();
  supplier = world.suppliers[0] as string;
  account = world.accounts[0] as string;
});
afterAll(async () => {
  await proxy?.close();
  await s?.close();
});

// biome-ignore lint/suspicious/noExplicitAny: the streams have their own record types.
function run(stream: StreamDefinition<any, any>, scope: string): Promise<StreamRunResult> {
  return runStream({
    pool: s.t.pool,
    client: simulatorClient({ ...s.sim, url: proxy.url }, s.config),
    config: s.config,
    logger,
    stream,
    scope: { kind: stream.scopeKind, id: scope },
    now: new Date(s.sim.clock.now()),
    eventSink: createEventSink({ timezone: s.config.timezone, thresholds: s.config.events }),
  });
}

async function count(sql: string, params: unknown[]): Promise<number> {
  return (await s.t.pool.query<{ n: number }>(sql, params)).rows[0]?.n ?? 0;
}

/** API calls since `from` whose path (and query) matches. */
function callsSince(from: number, match: RegExp): string[] {
  return proxy.calls.slice(from).filter((c) => match.test(c));
}

describe('open lists answered empty once', () => {
  it('open INs: no follow-up by key of every open IN, no event', async () => {
    expect(await run(transfersInStream, supplier)).toMatchObject({ status: 'succeeded' });
    expect(await run(transfersInStream, supplier)).toMatchObject({ status: 'succeeded', updated: 0 });
    const open = await count(
      `SELECT count(*)::int AS n FROM fulfillment.transfers_in
        WHERE supplier_id = $1 AND status_code IN ('PROCESSING', 'DRAFT', 'SUBMITTED')`,
      [supplier],
    );
    expect(open).toBeGreaterThan(0);
    const events = await count('SELECT count(*)::int AS n FROM sync.events WHERE scope = $1', [supplier]);
    const from = proxy.calls.length;
    // The open window reads one list per open status: all three answer empty once.
    proxy.rewrite = rewriteTimes(
      3,
      (url) => url.pathname.endsWith('/Transfers/INs') && url.searchParams.has('statusCode'),
      empty,
    );
    const result = await run(transfersInStream, supplier);
    proxy.rewrite = undefined;
    expect(result).toMatchObject({ status: 'succeeded', updated: 0 });
    expect(callsSince(from, /\/Transfers\/INs\/[^/?]+\/[^/?]+/)).toEqual([]);
    expect(await count('SELECT count(*)::int AS n FROM sync.events WHERE scope = $1', [supplier])).toBe(
      events,
    );
  });

  it('open returns: no look-up of every open return by order number, no event', async () => {
    expect(await run(returnsStream, account)).toMatchObject({ status: 'succeeded' });
    expect(await run(returnsStream, account)).toMatchObject({ status: 'succeeded', updated: 0 });
    const open = await count(
      `SELECT count(*)::int AS n FROM fulfillment.returns
        WHERE account_number = $1 AND processing_status_code IS DISTINCT FROM 'RESOLVED'`,
      [account],
    );
    expect(open).toBeGreaterThan(0);
    const events = await count('SELECT count(*)::int AS n FROM sync.events WHERE scope = $1', [account]);
    const from = proxy.calls.length;
    proxy.rewrite = rewriteTimes(
      2,
      (url) => url.pathname.endsWith('/Shipments/Returns') && url.searchParams.has('statusCode'),
      empty,
    );
    const result = await run(returnsStream, account);
    proxy.rewrite = undefined;
    expect(result).toMatchObject({ status: 'succeeded', updated: 0 });
    expect(callsSince(from, /\/Shipments\/Returns\?.*(orderNumber|trackingNumber)=/)).toEqual([]);
    expect(await count('SELECT count(*)::int AS n FROM sync.events WHERE scope = $1', [account])).toBe(
      events,
    );
  });

  it("products: an empty listing does not drop a product's pending detail request", async () => {
    expect(await run(productsStream, supplier)).toMatchObject({ status: 'succeeded' });
    const sku = (
      await s.t.pool.query<{ sku: string }>(
        'SELECT sku FROM fulfillment.products WHERE supplier_id = $1 ORDER BY sku LIMIT 1',
        [supplier],
      )
    ).rows[0]?.sku as string;
    // A detail call that failed earlier: due again now.
    await s.t.pool.query(
      `INSERT INTO sync.detail_requests (stream, scope, record_key, reason, attempts)
       VALUES ('products', $1, $2, 'detail-failed', 1)`,
      [supplier, sku],
    );
    const from = proxy.calls.length;
    proxy.rewrite = rewriteTimes(1, (url) => url.pathname.endsWith('/Products/Owned/Listing'), empty);
    const result = await run(productsStream, supplier);
    proxy.rewrite = undefined;
    expect(result.status).toBe('succeeded');
    // The request is served by its detail call (the listing, read again, lists the product), not
    // dropped as the request of a product no longer listed.
    const detailCalls = callsSince(from, new RegExp(`/Products/${supplier}/${encodeURIComponent(sku)}$`));
    const pending = await count(
      `SELECT count(*)::int AS n FROM sync.detail_requests WHERE stream = 'products' AND scope = $1 AND record_key = $2`,
      [supplier, sku],
    );
    expect(detailCalls.length + pending).toBeGreaterThan(0);
  });
});
