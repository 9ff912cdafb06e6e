import type { Pool } from 'pg';
import type { Logger } from 'pino';
import {
  createFulfillmentClient,
  type FulfillmentClient,
  type FulfillmentClientOptions,
  staticTokenProvider,
} from '../../src/api/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { type RunningSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator/index.ts';
import { allStreams } from '../../src/streams/index.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { EventSink, StreamRunResult } from '../../src/sync/types.ts';
import { createTestDatabase, type TestDatabase } from './db.ts';

/** The token every simulator started by the tests accepts. */
export const SIMULATOR_TOKEN = 'sandbox-token';

/**
 * Client options for tests that provoke failures: a short timeout and millisecond retries, so a
 * failing run ends in milliseconds instead of the production back-off.
 */
export const FAIL_FAST: Partial<FulfillmentClientOptions> = {
  timeoutMs: 5000,
  retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 5 },
};

/**
 * A client against a running simulator, capped per call at `config`'s FULFILLMENT_MAX_ROWS_PER_WINDOW
 * like the production client, without rate limiting (the simulator has none to respect).
 */
export function simulatorClient(
  sim: RunningSimulator,
  config: Pick<Config, 'api'>,
  overrides: Partial<FulfillmentClientOptions> = {},
): FulfillmentClient {
  return createFulfillmentClient({
    baseUrl: sim.url,
    tokenProvider: staticTokenProvider(SIMULATOR_TOKEN),
    timeoutMs: 10_000,
    rateLimitRps: 0,
    maxRowsPerCall: config.api.maxRowsPerWindow,
    ...overrides,
  });
}

/**
 * A shrinking answer is read again after FULFILLMENT_VANISH_CONFIRM_PAUSE_MS (2 s): a pause for a
 * real upstream's replica to catch up, which scripted upstreams do not need. Tests of the pause
 * itself set it explicitly.
 */
export const QUICK_CONFIRMATIONS = { FULFILLMENT_VANISH_CONFIRM_PAUSE_MS: '20' } as const;

/** A Config whose database is `databaseUrl` and whose upstream is `sim`; `env` adds or overrides. */
export function simulatorConfig(
  databaseUrl: string,
  sim: RunningSimulator,
  env: Record<string, string> = {},
): Config {
  return loadConfig({
    DATABASE_URL: databaseUrl,
    FULFILLMENT_API_URL: sim.url,
    FULFILLMENT_API_TOKEN: SIMULATOR_TOKEN,
    ...QUICK_CONFIRMATIONS,
    ...env,
  });
}

/**
 * A test database and a Config for it with nothing else set, for tests that script the upstream
 * with a stub client. Call in `beforeAll`, `t.close()` in `afterAll`.
 */
export async function startSyncDatabase(
  options: { max?: number } = {},
): Promise<{ t: TestDatabase; config: Config }> {
  const t = await createTestDatabase(options);
  return { t, config: loadConfig({ DATABASE_URL: t.url, ...QUICK_CONFIRMATIONS }) };
}

/** A test database, a manual-clock simulator, and a Config and client wired to both. */
export interface SyncHarness {
  t: TestDatabase;
  sim: RunningSimulator;
  config: Config;
  client: FulfillmentClient;
  /** Closes the simulator, then drops the database. */
  close: () => Promise<void>;
}

/**
 * Starts what an integration test of the sync needs against the simulator. The clock is manual, so
 * the simulated world only moves when the test advances it. Call in `beforeAll`, `close()` in `afterAll`.
 */
export async function startSyncHarness(
  simulator: Omit<SimulatorOptions, 'clock'>,
  env: Record<string, string> = {},
): Promise<SyncHarness> {
  const t = await createTestDatabase();
  const sim = await startSimulator({ ...simulator, clock: 'manual' }).catch(async (error: unknown) => {
    await t.close();
    throw error;
  });
  const config = simulatorConfig(t.url, sim, env);
  return {
    t,
    sim,
    config,
    client: simulatorClient(sim, config),
    close: async () => {
      await sim.close();
      await t.close();
    },
  };
}

/**
 * One run of every stream for every scope of the simulator's world, at its clock, in stream order
 * (what `sync --once` does); answers the runs that failed.
 */
export async function syncEveryScope(args: {
  pool: Pool;
  client: FulfillmentClient;
  config: Config;
  logger: Logger;
  sim: Pick<RunningSimulator, 'clock' | 'truth'>;
  eventSink: EventSink;
  /** Only the streams of this scope kind (default: every stream). */
  scopeKind?: 'supplier' | 'account';
}): Promise<StreamRunResult[]> {
  const now = new Date(args.sim.clock.now());
  const world = args.sim.truth();
  const failed: StreamRunResult[] = [];
  for (const stream of allStreams()) {
    if (args.scopeKind !== undefined && stream.scopeKind !== args.scopeKind) continue;
    for (const id of stream.scopeKind === 'supplier' ? world.suppliers : world.accounts) {
      const result = await runStream({
        pool: args.pool,
        client: args.client,
        config: args.config,
        logger: args.logger,
        stream,
        scope: { kind: stream.scopeKind, id },
        now,
        eventSink: args.eventSink,
      });
      if (result.status === 'failed') failed.push(result);
    }
  }
  return failed;
}
