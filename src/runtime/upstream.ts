import type { Logger } from 'pino';
import {
  createClientFromConfig,
  createFulfillmentClient,
  ENVIRONMENT_SETTING_NAMES,
  type FulfillmentClient,
  staticTokenProvider,
} from '../api/index.ts';
import type { Config } from '../config/types.ts';
import { recordApiCall } from '../http/metricsHooks.ts';
import { openUpstreamRateLimits } from '../ratelimit/upstreamRateLimits.ts';
import { startSimulator } from '../simulator/index.ts';
import { simulatorClock, systemClock, type UpstreamClock } from './upstreamClock.ts';

/** The upstream a process syncs from: the real service, or the in-process simulator in sandbox mode. */
export interface Upstream {
  client: FulfillmentClient;
  supplierIds: readonly string[];
  accountNumbers: readonly string[];
  sandbox: boolean;
  /** "Now" for each run's windows: the real clock, or the simulator's (FULFILLMENT_CLOCK=simulator). */
  now: UpstreamClock;
  /** The configuration with what the upstream fills in: in sandbox mode, the world's scopes and its beginning. */
  config: Config;
  close(): Promise<void>;
}

/** Days of history the sandbox world holds. */
const SANDBOX_HISTORY_DAYS = 14;

/** Seed and token of the sandbox simulator (the `simulator` command's defaults). */
export const SANDBOX_SEED = 42;
export const SANDBOX_TOKEN = 'sandbox-token';

/** How long a command waits for Redis before pacing itself alone (see openUpstreamRateLimits). */
export const RATE_LIMIT_REDIS_WAIT_MS = 1_000;

/**
 * Opens the upstream: with `config.api.baseUrl` the real client, drawing from the deployment's
 * shared rate limit in Redis (under `config.queuePrefix`) whenever Redis answers within
 * RATE_LIMIT_REDIS_WAIT_MS, else from its own buckets after one warning line. Without a URL,
 * sandbox mode starts the simulator in-process (real clock, small seeded world, no rate limit),
 * says so first thing in the log, and defaults the supplier ids, account numbers and sync start
 * to the simulator's world.
 */
export async function openUpstream(config: Config, logger: Logger): Promise<Upstream> {
  if (config.api.baseUrl) {
    const now = config.api.clock === 'simulator' ? simulatorClock(config.api.baseUrl) : systemClock;
    // Read once now, so a setting that points at no simulator stops the command with its one line.
    await now();
    const rateLimits = await openUpstreamRateLimits({
      redis: config.redis,
      prefix: config.queuePrefix,
      rps: config.api.rateLimitRps,
      orderDetailRps: config.api.orderDetailRps,
      waitMs: RATE_LIMIT_REDIS_WAIT_MS,
      logger,
    });
    return {
      client: createClientFromConfig(config, {
        logger,
        onCall: recordApiCall,
        rateLimits: rateLimits.limits,
      }),
      supplierIds: config.supplierIds,
      accountNumbers: config.accountNumbers,
      sandbox: false,
      now,
      config,
      close: async () => rateLimits.close(),
    };
  }
  logger.warn('SANDBOX MODE: FULFILLMENT_API_URL is not set, so the built-in simulator runs in-process');
  const sim = await startSimulator({
    seed: SANDBOX_SEED,
    clock: 'real',
    tokens: [SANDBOX_TOKEN],
    // Two weeks of history (~0.3 s to build): shorter worlds hold no delivered-then-returned orders,
    // so a new user's first look would show an empty returns table.
    volume: { historyDays: SANDBOX_HISTORY_DAYS },
  });
  logger.info({ url: sim.url }, 'sandbox simulator listening');
  const client = createFulfillmentClient({
    baseUrl: sim.url,
    tokenProvider: staticTokenProvider(SANDBOX_TOKEN),
    timeoutMs: config.api.timeoutMs,
    rateLimitRps: 0,
    queryParams: config.api.queryParams,
    maxRowsPerCall: config.api.maxRowsPerWindow,
    settingNames: ENVIRONMENT_SETTING_NAMES,
    maxResponseBytes: config.api.maxResponseBytes,
    onCall: recordApiCall,
  });
  const supplierIds =
    config.supplierIds.length > 0 ? config.supplierIds : sim.world.suppliers.map((s) => s.id);
  const accountNumbers =
    config.accountNumbers.length > 0 ? config.accountNumbers : sim.world.accounts.map((a) => a.number);
  // Nothing happened in the sandbox world before it began: a first load reads from there, not 30
  // days back through empty history (every empty day still costs calls).
  const syncStart = config.syncStart ?? new Date(sim.clock.now() - SANDBOX_HISTORY_DAYS * 86_400_000);
  return {
    client,
    supplierIds,
    accountNumbers,
    sandbox: true,
    now: config.api.clock === 'simulator' ? async () => new Date(sim.clock.now()) : systemClock,
    config: { ...config, supplierIds, accountNumbers, syncStart },
    close: () => sim.close(),
  };
}
