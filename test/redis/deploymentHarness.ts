import { expect } from 'vitest';
import { STREAM_NAMES } from '../../src/config/types.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { STREAM_SCOPE_KIND } from '../../src/worker/streamScopes.ts';
import { type FlakyReceiver, startFlakyReceiver } from '../chaos/lib/flakyReceiver.ts';
import { type CountingProxy, perSecond, startCountingProxy } from '../helpers/countingProxy.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { SIMULATOR_TOKEN } from '../helpers/syncHarness.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { warehouseMismatches } from '../helpers/warehouseTruth.ts';
import { spawnWorker, type WorkerProcess } from '../worker/spawnWorker.ts';

/**
 * A worker deployment against a Redis the test runs itself (Cluster, Sentinel, TLS): its own
 * database, a manual-clock simulator behind a proxy that counts upstream calls, and a webhook
 * receiver subscribed to every event. The worker's engine reads up to the real now, so the world
 * starts at the current minute and never moves: the truth cannot change under the workers.
 */
export interface DeploymentHarness {
  t: TestDatabase;
  sim: RunningSimulator;
  proxy: CountingProxy;
  receiver: FlakyReceiver;
  /** The env of a worker of this deployment; `redis` names the Redis variables, `extra` adds more. */
  env: (redis: Record<string, string>, extra?: Record<string, string>) => Record<string, string>;
  spawn: (env: Record<string, string>) => WorkerProcess;
  /** How many stream and scope pairs have a schedule (every stream but orders, for every scope). */
  pairs: number;
  close: () => Promise<void>;
}

/** `size` makes the simulated world smaller (default: two suppliers of 18 wines) where a test needs less. */
export async function startDeploymentHarness(
  seed: number,
  size: { suppliers?: number; winesPerSupplier?: number } = {},
): Promise<DeploymentHarness> {
  const children: WorkerProcess[] = [];
  const t = await createTestDatabase();
  let sim: RunningSimulator | undefined;
  let proxy: CountingProxy | undefined;
  let receiver: FlakyReceiver | undefined;
  const close = async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await Promise.all(children.map((c) => c.exited));
    await receiver?.close();
    await proxy?.close();
    await sim?.close();
    await t.close();
  };
  try {
    sim = await startSimulator({
      seed,
      clock: 'manual',
      start: new Date(Math.floor(Date.now() / 60_000) * 60_000),
      volume: { historyDays: 1, ...size },
    });
    proxy = await startCountingProxy(sim.url);
    // Always answers 200: a lost delivery is then the sender's loss, never the receiver's.
    receiver = await startFlakyReceiver({ errorRate: 0, hangRate: 0, maxFailuresInARow: 0, seed });
    const endpoint = await addEndpoint(
      t.pool,
      { url: receiver.url },
      { policy: { allowPrivateTargets: true } },
    );
    receiver.setSecret(endpoint.secret);
  } catch (error) {
    await close();
    throw error;
  }
  const world = sim.world;
  const upstream = proxy.url;
  const pairs = STREAM_NAMES.filter((s) => s !== 'orders').reduce(
    (n, s) => n + (STREAM_SCOPE_KIND[s] === 'account' ? world.accounts.length : world.suppliers.length),
    0,
  );
  return {
    t,
    sim,
    proxy,
    receiver,
    pairs,
    env: (redis, extra = {}) => ({
      DATABASE_URL: t.url,
      FULFILLMENT_API_URL: upstream,
      FULFILLMENT_API_TOKEN: SIMULATOR_TOKEN,
      FULFILLMENT_SYNC_START: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      FULFILLMENT_SUPPLIER_IDS: world.suppliers.map((s) => s.id).join(','),
      FULFILLMENT_ACCOUNT_NUMBERS: world.accounts.map((a) => a.number).join(','),
      // Events of the first load are delivered too, so the test has deliveries to lose.
      FULFILLMENT_DELIVER_INITIAL_EVENTS: 'true',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WORKER_SHUTDOWN_TIMEOUT_MS: '3000',
      ...redis,
      ...extra,
    }),
    spawn: (env) => {
      const child = spawnWorker(env);
      children.push(child);
      return child;
    },
    close,
  };
}

async function count(t: TestDatabase, sql: string): Promise<number> {
  return Number((await t.pool.query(sql)).rows[0].n);
}

/**
 * Waits until every scheduled stream and scope has synced (its registration run), the order
 * details they asked for are fetched, and every event is dispatched and delivered.
 */
export async function waitUntilSyncedAndDelivered(h: DeploymentHarness, timeoutMs: number): Promise<void> {
  await waitFor(
    `all ${h.pairs} streams and scopes synced and their order details fetched`,
    async () =>
      (await count(h.t, 'SELECT count(*) AS n FROM sync.cursors WHERE last_success_at IS NOT NULL')) >=
        h.pairs && (await count(h.t, 'SELECT count(*) AS n FROM sync.detail_requests')) === 0,
    timeoutMs,
    250,
  );
  await waitFor(
    'every event delivered',
    async () =>
      (await count(
        h.t,
        'SELECT count(*) AS n FROM sync.events WHERE dispatched_at IS NULL AND NOT suppressed',
      )) === 0 &&
      (await count(
        h.t,
        "SELECT count(*) AS n FROM sync.webhook_delivery_states WHERE status <> 'succeeded'",
      )) === 0,
    timeoutMs,
    250,
  );
}

/**
 * Nothing lost: the warehouse equals the simulator's truth, every cursor advanced, and every
 * deliverable event reached the receiver, signed, exactly as stored (checked once the workers stopped).
 */
export async function expectNothingLost(h: DeploymentHarness): Promise<{ events: number; requests: number }> {
  expect(
    await warehouseMismatches(h.t.pool, h.sim.truth(), { streams: STREAM_NAMES, namedOrdersOnly: true }),
  ).toEqual([]);
  expect(
    await count(h.t, 'SELECT count(*) AS n FROM sync.cursors WHERE last_success_at IS NOT NULL'),
  ).toBeGreaterThanOrEqual(h.pairs);
  const events = (
    await h.t.pool.query<{ id: string }>('SELECT id FROM sync.events WHERE NOT suppressed ORDER BY id')
  ).rows.map((r) => r.id);
  // The comparison is not of an empty world.
  expect(events.length).toBeGreaterThan(0);
  const delivered = new Set(
    h.receiver.requests.filter((r) => r.answer === 'ok' && r.signatureValid).map((r) => r.eventId),
  );
  expect(events.filter((id) => !delivered.has(id))).toEqual([]);
  expect(
    await count(h.t, "SELECT count(*) AS n FROM sync.webhook_delivery_states WHERE status <> 'succeeded'"),
  ).toBe(0);
  return { events: events.length, requests: h.proxy.arrivals.length };
}

/** The busiest calendar second of upstream calls since the first one. */
export function busiestSecond(arrivals: readonly number[]): number {
  if (arrivals.length === 0) return 0;
  const from = Math.floor(arrivals[0]! / 1000) * 1000;
  const seconds = Math.ceil((arrivals[arrivals.length - 1]! - from + 1) / 1000);
  return Math.max(...perSecond(arrivals, from, seconds));
}
