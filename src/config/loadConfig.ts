import type { z } from 'zod';
import { QueryParamOverrideError, resolveQueryParams } from '../api/queryParams.ts';
import { parseUpstreamDateTime } from '../time/parse.ts';
import { ConfigError } from './configError.ts';
import { authProblems, dashboardProblems, readerRoleProblems } from './crossChecks.ts';
import { deepFreeze } from './deepFreeze.ts';
import { envSchema, type ParsedEnv, QUERY_TIMEOUT_FROM_STATEMENT } from './envSchema.ts';
import {
  CLUSTER_DEFAULT_QUEUE_PREFIX,
  clusterPrefixProblem,
  type RedisSettings,
  redisSettings,
} from './redisSettings.ts';
import { STREAM_DEFAULTS, WHOLE_HORIZON_STREAMS } from './streamDefaults.ts';
import {
  type Config,
  type DatabaseSettings,
  DEFAULT_QUEUE_PREFIX,
  STREAM_NAMES,
  type StreamName,
  type StreamSettings,
} from './types.ts';

/**
 * Reads the environment (docs/configuration.md) into a validated, deep-frozen `Config`.
 * Throws `ConfigError` listing every problem, one line each, naming the variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const present = presentValues(env);
  const parsed = envSchema.safeParse(present);
  const problems = parsed.success ? [] : parsed.error.issues.map(issueLine);
  problems.push(...authProblems(present), ...dashboardProblems(present), ...readerRoleProblems(present));
  if (!parsed.success) throw new ConfigError(problems);

  const syncStart = parseSyncStart(parsed.data, problems);
  const streams = mergeStreams(parsed.data.FULFILLMENT_STREAMS, problems);
  checkQueryParams(parsed.data.FULFILLMENT_QUERY_PARAMS, problems);
  const redis = redisSettings(parsed.data, problems);
  const queuePrefix = queuePrefixFor(parsed.data.FULFILLMENT_QUEUE_PREFIX, redis, problems);
  const database = databaseSettings(parsed.data, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(assemble(parsed.data, syncStart, streams, redis, queuePrefix, database));
}

/** Blank values count as unset; everything else is trimmed by the field parsers. */
function presentValues(env: NodeJS.ProcessEnv): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) {
    out[name] = value !== undefined && value.trim() !== '' ? value : undefined;
  }
  return out;
}

function issueLine(issue: z.core.$ZodIssue): string {
  const [variable, ...inner] = issue.path.map(String);
  const where = inner.length > 0 ? `${variable} (at ${inner.join('.')})` : variable;
  return `${where}: ${issue.message}`;
}

function parseSyncStart(env: ParsedEnv, problems: string[]): Date | undefined {
  const raw = env.FULFILLMENT_SYNC_START;
  if (raw === undefined) return undefined;
  try {
    // A date or a date-time without offset is wall-clock time in the configured zone; anything
    // that is no date-time (or an impossible date) throws.
    return parseUpstreamDateTime(raw, env.FULFILLMENT_TIMEZONE, env.FULFILLMENT_AMBIGUOUS_TIME);
  } catch {
    problems.push(
      `FULFILLMENT_SYNC_START: must be an ISO date (2026-01-31) or date-time (2026-01-31T08:00, optional offset), got ${JSON.stringify(raw.slice(0, 60))}`,
    );
    return undefined;
  }
}

/** An override naming an unknown operation or parameter is caught at start, not at the first call. */
function checkQueryParams(overrides: ParsedEnv['FULFILLMENT_QUERY_PARAMS'], problems: string[]): void {
  try {
    resolveQueryParams(overrides);
  } catch (error) {
    if (!(error instanceof QueryParamOverrideError)) throw error;
    for (const problem of error.problems) problems.push(`FULFILLMENT_QUERY_PARAMS: ${problem}`);
  }
}

/** FULFILLMENT_QUEUE_PREFIX or the default; on a Cluster the prefix must carry a hash tag. */
function queuePrefixFor(configured: string | undefined, redis: RedisSettings, problems: string[]): string {
  if (redis.mode !== 'cluster') return configured ?? DEFAULT_QUEUE_PREFIX;
  if (configured === undefined) return CLUSTER_DEFAULT_QUEUE_PREFIX;
  const problem = clusterPrefixProblem(configured, 'FULFILLMENT_QUEUE_PREFIX');
  if (problem !== undefined) problems.push(problem);
  return configured;
}

/** How much longer than the statement timeout an answer may take by default (DATABASE_QUERY_TIMEOUT_MS). */
const ANSWER_MARGIN_MS = 30_000;

/**
 * The DATABASE_* limits; the query timeout, unset, is the statement timeout and a margin, and set,
 * must exceed it (or the client would give up before Postgres cancels, with a vaguer error).
 */
function databaseSettings(env: ParsedEnv, problems: string[]): DatabaseSettings {
  const statementTimeoutMs = env.DATABASE_STATEMENT_TIMEOUT_MS;
  const configured = env.DATABASE_QUERY_TIMEOUT_MS;
  const derived = statementTimeoutMs > 0 ? statementTimeoutMs + ANSWER_MARGIN_MS : 0;
  const queryTimeoutMs = configured === QUERY_TIMEOUT_FROM_STATEMENT ? derived : configured;
  if (queryTimeoutMs > 0 && statementTimeoutMs > 0 && queryTimeoutMs <= statementTimeoutMs) {
    problems.push(
      `DATABASE_QUERY_TIMEOUT_MS: must exceed DATABASE_STATEMENT_TIMEOUT_MS (${statementTimeoutMs}) so that Postgres cancels a slow statement before the client gives up on it, or be 0 (none); got ${queryTimeoutMs}`,
    );
  }
  return {
    statementTimeoutMs,
    queryTimeoutMs,
    longStatementTimeoutMs: env.DATABASE_LONG_STATEMENT_TIMEOUT_MS,
    keepAliveMs: env.DATABASE_KEEPALIVE_MS,
  };
}

function mergeStreams(
  overrides: ParsedEnv['FULFILLMENT_STREAMS'],
  problems: string[],
): Record<StreamName, StreamSettings> {
  const streams = {} as Record<StreamName, StreamSettings>;
  for (const name of STREAM_NAMES) {
    const merged: StreamSettings = { ...STREAM_DEFAULTS[name] };
    const override = overrides[name] ?? {};
    for (const [key, value] of Object.entries(override)) {
      if (value !== undefined) (merged as unknown as Record<string, number>)[key] = value;
    }
    merged.cadenceIsExplicit = override.cadenceMinutes !== undefined;
    // A longer or shorter horizon alone keeps reading it whole in one window.
    if (
      WHOLE_HORIZON_STREAMS.includes(name) &&
      override.rereadDays !== undefined &&
      override.windowSize === undefined
    )
      merged.windowSize = Math.max(1, merged.rereadDays + 1);
    if (merged.minWindowSize > merged.windowSize) {
      problems.push(
        `FULFILLMENT_STREAMS (at ${name}): minWindowSize ${merged.minWindowSize} must not exceed windowSize ${merged.windowSize}`,
      );
    }
    streams[name] = merged;
  }
  return streams;
}

function assemble(
  env: ParsedEnv,
  syncStart: Date | undefined,
  streams: Record<StreamName, StreamSettings>,
  redis: RedisSettings,
  queuePrefix: string,
  database: DatabaseSettings,
): Config {
  return {
    databaseUrl: env.DATABASE_URL,
    database,
    readerRole: env.FULFILLMENT_READER_ROLE,
    fullReaderRole: env.FULFILLMENT_FULL_READER_ROLE,
    redisUrl: env.REDIS_URL,
    redis,
    api: {
      baseUrl: env.FULFILLMENT_API_URL,
      token: env.FULFILLMENT_API_TOKEN,
      tokenUrl: env.FULFILLMENT_TOKEN_URL,
      clientId: env.FULFILLMENT_CLIENT_ID,
      clientSecret: env.FULFILLMENT_CLIENT_SECRET,
      timeoutMs: env.FULFILLMENT_TIMEOUT_MS,
      rateLimitRps: env.FULFILLMENT_RATE_LIMIT_RPS,
      orderDetailRps: env.FULFILLMENT_ORDER_DETAIL_RPS,
      queryParams: env.FULFILLMENT_QUERY_PARAMS,
      maxRowsPerWindow: env.FULFILLMENT_MAX_ROWS_PER_WINDOW,
      maxResponseBytes: env.FULFILLMENT_MAX_RESPONSE_BYTES,
      runDeadlineMs: env.FULFILLMENT_RUN_DEADLINE_MS,
      clock: env.FULFILLMENT_CLOCK,
    },
    sandbox: env.FULFILLMENT_API_URL === undefined,
    // Sandbox defaults for these come from the simulator's world, decided where it starts.
    supplierIds: env.FULFILLMENT_SUPPLIER_IDS,
    accountNumbers: env.FULFILLMENT_ACCOUNT_NUMBERS,
    syncStart,
    timezone: env.FULFILLMENT_TIMEZONE,
    ambiguousTime: env.FULFILLMENT_AMBIGUOUS_TIME,
    streams,
    events: {
      lowStockThreshold: env.FULFILLMENT_LOW_STOCK_THRESHOLD,
      lowStockThresholdsBySku: env.FULFILLMENT_LOW_STOCK_THRESHOLDS,
      deliverInitialLoadEvents: env.FULFILLMENT_DELIVER_INITIAL_EVENTS,
    },
    details: { maxAttempts: env.FULFILLMENT_DETAIL_MAX_ATTEMPTS },
    vanishConfirm: {
      share: env.FULFILLMENT_VANISH_CONFIRM_SHARE,
      minRows: env.FULFILLMENT_VANISH_CONFIRM_MIN_ROWS,
      rereads: env.FULFILLMENT_VANISH_CONFIRM_READS,
      pauseMs: env.FULFILLMENT_VANISH_CONFIRM_PAUSE_MS,
    },
    webhooks: {
      allowPrivateTargets: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      retryMaxDelayMs: env.WEBHOOK_RETRY_MAX_DELAY_MS,
      endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
      maxInFlight: env.WEBHOOK_MAX_IN_FLIGHT,
    },
    polling: { budgetShare: env.FULFILLMENT_POLL_BUDGET_SHARE },
    worker: {
      concurrency: env.WORKER_CONCURRENCY,
      shutdownTimeoutMs: env.WORKER_SHUTDOWN_TIMEOUT_MS,
    },
    retention: {
      runsDays: env.RETENTION_RUNS_DAYS,
      eventsDays: env.RETENTION_EVENTS_DAYS,
      deliveriesDays: env.RETENTION_DELIVERIES_DAYS,
      rejectedDays: env.RETENTION_REJECTED_DAYS,
      backfillWindowsDays: env.RETENTION_BACKFILL_WINDOWS_DAYS,
      pruneEveryMinutes: env.PRUNE_EVERY_MINUTES,
      batchSize: env.PRUNE_BATCH_SIZE,
      batchPauseMs: env.PRUNE_BATCH_PAUSE_MS,
    },
    httpPort: env.HTTP_PORT,
    httpPortFile: env.HTTP_PORT_FILE,
    queuePrefix,
    dashboard: { user: env.DASHBOARD_USER, password: env.DASHBOARD_PASSWORD },
    logLevel: env.LOG_LEVEL,
  };
}
