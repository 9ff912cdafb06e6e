import pino from 'pino';
import type { CallReport, FulfillmentClient } from '../../../src/api/index.ts';
import { createFulfillmentClient, staticTokenProvider } from '../../../src/api/index.ts';
import { loadConfig } from '../../../src/config/loadConfig.ts';
import type { Config } from '../../../src/config/types.ts';
import { createEventSink } from '../../../src/events/sink.ts';
import { SIMULATOR_TOKEN, syncEveryScope } from '../../helpers/syncHarness.ts';
import type { ChaosWorld } from './world.ts';

/**
 * The sync engine in-process against a chaos world, at the simulator's clock: every stream for every
 * scope, as `sync --once` does (src/cli/actions/sync.ts), but with `now` taken from the manual
 * clock. A child process (the CLI or the worker) reads the real clock, so it could not follow a
 * simulated week; in-process the same `runStream` runs with the real retrying HTTP client, with
 * one retry instead of four, no waiting between retries, and a short per-attempt timeout (a
 * `timeout` fault never answers, so each one costs the timeout).
 */
export interface FaultWeekSync {
  config: Config;
  /** Every HTTP attempt the client made (its `onCall` reports). */
  calls: CallReport[];
  /** Runs that ended `failed` so far. */
  failedRuns: number;
  /** Syncs every stream for every scope once, at the simulator's current time. */
  syncAll(client?: FulfillmentClient): Promise<void>;
  /** A client with `timeoutMs` per attempt (and the retry policy above). */
  client(timeoutMs: number): FulfillmentClient;
}

const logger = pino({ level: 'silent' });

export function faultWeekSync(world: ChaosWorld, attemptTimeoutMs: number): FaultWeekSync {
  const config = loadConfig(world.env());
  const calls: CallReport[] = [];
  const client = (timeoutMs: number) =>
    createFulfillmentClient({
      baseUrl: world.sim.url,
      tokenProvider: staticTokenProvider(SIMULATOR_TOKEN),
      timeoutMs,
      rateLimitRps: 0,
      queryParams: config.api.queryParams,
      maxRowsPerCall: config.api.maxRowsPerWindow,
      // Production retries 4 times with back-off from 500 ms; at these rates that absorbs nearly
      // every fault (a short run saw 0 failed runs), so the faults would never reach a window. One
      // retry lets windows fail and be caught up later, which is what the scenario is about; the
      // back-off and Retry-After waits are cut to nothing so a week of faults costs no idle time.
      retry: { retries: 1, minTimeoutMs: 1, maxTimeoutMs: 5 },
      onCall: (report) => calls.push(report),
      sleep: async () => {},
    });
  const weekClient = client(attemptTimeoutMs);
  const sync: FaultWeekSync = {
    config,
    calls,
    failedRuns: 0,
    client,
    syncAll: async (using = weekClient) => {
      const eventSink = createEventSink({
        timezone: config.timezone,
        ambiguousTime: config.ambiguousTime,
        thresholds: config.events,
      });
      const failed = await syncEveryScope({
        pool: world.pool,
        client: using,
        config,
        logger,
        sim: world.sim,
        eventSink,
      });
      sync.failedRuns += failed.length;
    },
  };
  return sync;
}
