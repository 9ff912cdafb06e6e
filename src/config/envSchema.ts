import { z } from 'zod';
import { CLIENT_DEFAULTS } from '../api/clientDefaults.ts';
import {
  booleanVar,
  enumVar,
  integerVar,
  jsonVar,
  listVar,
  optionalString,
  positiveNumberVar,
  roleNameVar,
  shareVar,
  timeZoneVar,
  urlVar,
} from './envFields.ts';
import { STREAM_NAMES } from './streamNames.ts';

/** DATABASE_QUERY_TIMEOUT_MS unset: derived from the statement timeout when the config is assembled. */
export const QUERY_TIMEOUT_FROM_STATEMENT = -1;

/** Log levels accepted by LOG_LEVEL (pino's, plus silent). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/**
 * FULFILLMENT_CLOCK: where a sync reads "now" for its windows. `system`: this machine's clock (a real
 * API). `simulator`: the simulator's own clock (`GET /_sim/world`), which a manual clock moves on
 * command; a real API has no such clock.
 */
export const UPSTREAM_CLOCKS = ['system', 'simulator'] as const;

/** FULFILLMENT_AMBIGUOUS_TIME: which occurrence of a repeated autumn hour an offset-less time means. */
export const AMBIGUOUS_TIMES = ['earlier', 'later'] as const;

/**
 * Sane maxima of FULFILLMENT_STREAMS values: large enough for any real tuning, small enough that
 * window planning stays in the range of valid dates and a run plans a bounded number of windows.
 * Window sizes are minutes for shipments and days for the day-window streams.
 */
export const STREAM_SETTING_MAXIMA = {
  /** A week between scheduled runs. */
  cadenceMinutes: 10_080,
  /** A week: the loosest freshness target worth a target (products default to a day). */
  freshnessSeconds: 604_800,
  /** A week of late carrier scans. */
  lookbackMinutes: 10_080,
  /** Ten years of history read on a first load. */
  historyDays: 3650,
  /** Two years re-read each run. */
  rereadDays: 730,
  /** A quarter (92 days) of minutes (shipments: the largest window a read starts with; default 31 days). */
  minuteWindow: 92 * 1440,
  /** The longest re-read horizon in days, read whole (the day-window streams). */
  dayWindow: 731,
} as const;

/** A whole number in [min, max] whose problem line states the maximum and its unit. */
function bounded(min: number, max: number, unit: string) {
  return z
    .number()
    .int()
    .min(min)
    .max(max, { error: (issue) => `must be at most ${max} (${unit}), got ${String(issue.input)}` })
    .optional();
}

/** One stream's overrides; `windowUnit` is how its windows are measured. */
function streamOverride(windowUnit: 'minutes' | 'days') {
  const windowMax =
    windowUnit === 'minutes' ? STREAM_SETTING_MAXIMA.minuteWindow : STREAM_SETTING_MAXIMA.dayWindow;
  return z.strictObject({
    cadenceMinutes: bounded(0, STREAM_SETTING_MAXIMA.cadenceMinutes, 'minutes'),
    freshnessSeconds: bounded(0, STREAM_SETTING_MAXIMA.freshnessSeconds, 'seconds'),
    lookbackMinutes: bounded(0, STREAM_SETTING_MAXIMA.lookbackMinutes, 'minutes'),
    historyDays: bounded(0, STREAM_SETTING_MAXIMA.historyDays, 'days'),
    rereadDays: bounded(0, STREAM_SETTING_MAXIMA.rereadDays, 'days'),
    windowSize: bounded(1, windowMax, windowUnit),
    minWindowSize: bounded(1, windowMax, windowUnit),
  });
}

/** FULFILLMENT_STREAMS: `{"<stream>": {partial StreamSettings}}`; unknown streams or fields are errors. */
const streamsOverride = z.strictObject(
  Object.fromEntries(
    STREAM_NAMES.map((name) => [name, streamOverride(name === 'shipments' ? 'minutes' : 'days').optional()]),
  ) as Record<(typeof STREAM_NAMES)[number], z.ZodOptional<ReturnType<typeof streamOverride>>>,
);

const queryParams = z.record(z.string(), z.record(z.string(), z.string().min(1)));
const thresholdsBySku = z.record(z.string(), z.number().int().min(0));

/**
 * The environment (docs/configuration.md) with its tuning variables, each parsed on its own, so one
 * safeParse reports every problem at once. Cross-variable rules live in `crossChecks.ts`.
 */
export const envSchema = z.object({
  DATABASE_URL: urlVar('postgres://localhost:5432/fulfillment', ['postgres:', 'postgresql:']),
  DATABASE_STATEMENT_TIMEOUT_MS: integerVar(60_000, 0, 86_400_000),
  // Unset: the statement timeout and 30 s (see loadConfig).
  DATABASE_QUERY_TIMEOUT_MS: integerVar(QUERY_TIMEOUT_FROM_STATEMENT, 0, 86_400_000),
  DATABASE_LONG_STATEMENT_TIMEOUT_MS: integerVar(3_600_000, 0, 86_400_000),
  DATABASE_KEEPALIVE_MS: integerVar(10_000, 1000, 3_600_000),
  REDIS_URL: urlVar('redis://localhost:6379', ['redis:', 'rediss:']),
  REDIS_SENTINELS: listVar(),
  REDIS_SENTINEL_MASTER: optionalString(),
  REDIS_SENTINEL_PASSWORD: optionalString(),
  REDIS_CLUSTER_NODES: listVar(),
  REDIS_TLS_CA_FILE: optionalString(),
  REDIS_TLS_INSECURE: booleanVar(false),
  FULFILLMENT_API_URL: urlVar(undefined, ['http:', 'https:']),
  FULFILLMENT_API_TOKEN: optionalString(),
  FULFILLMENT_TOKEN_URL: urlVar(undefined, ['http:', 'https:']),
  FULFILLMENT_CLIENT_ID: optionalString(),
  FULFILLMENT_CLIENT_SECRET: optionalString(),
  FULFILLMENT_SUPPLIER_IDS: listVar(),
  FULFILLMENT_ACCOUNT_NUMBERS: listVar(),
  FULFILLMENT_SYNC_START: optionalString(),
  FULFILLMENT_TIMEZONE: timeZoneVar('America/Los_Angeles'),
  FULFILLMENT_AMBIGUOUS_TIME: enumVar('later', AMBIGUOUS_TIMES),
  FULFILLMENT_CLOCK: enumVar('system', UPSTREAM_CLOCKS),
  FULFILLMENT_QUERY_PARAMS: jsonVar(queryParams, {}),
  FULFILLMENT_RATE_LIMIT_RPS: positiveNumberVar(CLIENT_DEFAULTS.rateLimitRps, 10_000),
  FULFILLMENT_POLL_BUDGET_SHARE: shareVar(0.5),
  FULFILLMENT_TIMEOUT_MS: integerVar(CLIENT_DEFAULTS.timeoutMs, 1, 3_600_000),
  FULFILLMENT_MAX_ROWS_PER_WINDOW: integerVar(5000, 1, 10_000_000),
  FULFILLMENT_MAX_RESPONSE_BYTES: integerVar(32 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  FULFILLMENT_RUN_DEADLINE_MS: integerVar(1_800_000, 0, 86_400_000),
  FULFILLMENT_VANISH_CONFIRM_SHARE: shareVar(0.5),
  FULFILLMENT_VANISH_CONFIRM_MIN_ROWS: integerVar(10, 1, 10_000_000),
  FULFILLMENT_VANISH_CONFIRM_READS: integerVar(2, 1, 10),
  FULFILLMENT_VANISH_CONFIRM_PAUSE_MS: integerVar(2000, 0, 600_000),
  FULFILLMENT_STREAMS: jsonVar(streamsOverride, {}),
  FULFILLMENT_LOW_STOCK_THRESHOLD: integerVar(12, 0, 1_000_000_000),
  FULFILLMENT_LOW_STOCK_THRESHOLDS: jsonVar(thresholdsBySku, {}),
  FULFILLMENT_DELIVER_INITIAL_EVENTS: booleanVar(false),
  FULFILLMENT_DETAIL_MAX_ATTEMPTS: integerVar(10, 1, 1000),
  FULFILLMENT_READER_ROLE: roleNameVar(),
  FULFILLMENT_FULL_READER_ROLE: roleNameVar(),
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanVar(false),
  WEBHOOK_TIMEOUT_MS: integerVar(15_000, 100, 300_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: integerVar(86_400_000, 100, 86_400_000),
  WEBHOOK_ENDPOINT_CONCURRENCY: integerVar(10, 1, 1000),
  WEBHOOK_MAX_IN_FLIGHT: integerVar(1000, 1, 100_000),
  WORKER_CONCURRENCY: integerVar(4, 1, 1000),
  FULFILLMENT_ORDER_DETAIL_RPS: positiveNumberVar(5, 10_000),
  WORKER_SHUTDOWN_TIMEOUT_MS: integerVar(30_000, 0, 3_600_000),
  HTTP_PORT: integerVar(9464, 0, 65_535),
  HTTP_PORT_FILE: optionalString(),
  FULFILLMENT_QUEUE_PREFIX: optionalString(),
  DASHBOARD_USER: optionalString(),
  DASHBOARD_PASSWORD: optionalString(),
  LOG_LEVEL: enumVar('info', LOG_LEVELS),
  RETENTION_RUNS_DAYS: integerVar(30, 0, 36_500),
  RETENTION_EVENTS_DAYS: integerVar(90, 0, 36_500),
  RETENTION_DELIVERIES_DAYS: integerVar(30, 0, 36_500),
  RETENTION_REJECTED_DAYS: integerVar(90, 0, 36_500),
  RETENTION_BACKFILL_WINDOWS_DAYS: integerVar(90, 0, 36_500),
  PRUNE_EVERY_MINUTES: integerVar(60, 0, 10_080),
  PRUNE_BATCH_SIZE: integerVar(1000, 1, 100_000),
  PRUNE_BATCH_PAUSE_MS: integerVar(100, 0, 60_000),
});

/** The parsed environment, before cross-variable checks and assembly into `Config`. */
export type ParsedEnv = z.output<typeof envSchema>;

/** Every variable the configuration reads. */
export const CONFIG_ENV_VARS = Object.keys(envSchema.shape) as (keyof ParsedEnv)[];
