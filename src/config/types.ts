import type { RedisSettings } from './redisSettings.ts';
import type { StreamName } from './streamNames.ts';

// Re-exported so the many modules that read config types find the names here too; the list lives in
// its own module so envSchema.ts can use it without importing this file (an import cycle).
export { STREAM_NAMES, type StreamName } from './streamNames.ts';

/** Per-stream tuning; defaults in docs/configuration.md, overridable by FULFILLMENT_STREAMS (JSON). */
export interface StreamSettings {
  /**
   * How often the scheduler runs it when no freshness target applies; 0 means on demand only
   * (orders). Set explicitly (FULFILLMENT_STREAMS), it wins over the freshness target.
   */
  cadenceMinutes: number;
  /** Whether `cadenceMinutes` was set explicitly in FULFILLMENT_STREAMS (then it wins over freshness). */
  cadenceIsExplicit: boolean;
  /**
   * Freshness target in seconds: how old a change may be when it reaches subscribers. The scheduler
   * derives each scope's poll interval from it and the polling share of the rate budget; 0: no
   * target, the stream runs every `cadenceMinutes`.
   */
  freshnessSeconds: number;
  /** shipments: how far behind the cursor each run starts again, for late scans. */
  lookbackMinutes: number;
  /**
   * How many days back a scope's first load reads at most (0: from FULFILLMENT_SYNC_START). For a
   * stream that costs one call per day of history, like inventory activity.
   */
  historyDays: number;
  /** Day-window streams: how many days back each run re-reads, since records there still change. */
  rereadDays: number;
  /** Size of one window: minutes for shipments, days for the others. */
  windowSize: number;
  /** Smallest slice adaptive splitting may reach before failing loudly (minutes or days as above). */
  minWindowSize: number;
}

export interface ApiSettings {
  /** Unset: sandbox mode, the built-in simulator is started in-process. */
  baseUrl: string | undefined;
  token: string | undefined;
  tokenUrl: string | undefined;
  clientId: string | undefined;
  clientSecret: string | undefined;
  timeoutMs: number;
  /** Requests per second to the upstream, one budget for the whole deployment (shared through Redis). */
  rateLimitRps: number;
  /** Order-detail requests per second, a budget of their own; they count against rateLimitRps too. */
  orderDetailRps: number;
  /** `{"<operation>": {"<meaning>": "<name>"}}` overrides of the default query-string names. */
  queryParams: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** An answer with more rows than this is treated as truncated and its window split. */
  maxRowsPerWindow: number;
  /** An answer whose decoded body is larger than this is abandoned as too large (FULFILLMENT_MAX_RESPONSE_BYTES). */
  maxResponseBytes: number;
  /**
   * FULFILLMENT_RUN_DEADLINE_MS: a run of one stream and scope fetches no new window after this
   * long and fails, keeping what it stored, so one slow scope cannot hold the others; 0: none.
   */
  runDeadlineMs: number;
  /**
   * FULFILLMENT_CLOCK: where a sync reads "now": 'system' (this machine's clock, for a real API) or
   * 'simulator' (the simulator's own clock, GET <baseUrl>/_sim/world, so a manual clock moved on
   * command moves the sync's windows with it).
   */
  clock: 'system' | 'simulator';
}

/**
 * When an answer that would vanish rows (zero stored inventory, close open records, serve the
 * requests of unlisted products) is read again before anything vanishes: it omits every row the
 * scope holds, or `share` or more of at least `minRows` (FULFILLMENT_VANISH_CONFIRM_*).
 */
export interface VanishConfirmSettings {
  /** An answer omitting this share of the scope's rows or more is read again first (default 0.5). */
  share: number;
  /** The share applies from this many rows held (default 10); omitting every row always counts. */
  minRows: number;
  /** Further reads at most, one `pauseMs` apart, before the shrink is withheld (default 2). */
  rereads: number;
  /** Pause before each further read, so a lagging replica or cold cache can catch up (default 2000). */
  pauseMs: number;
}

/** Default Redis key prefix of the queues and the shared rate limit (FULFILLMENT_QUEUE_PREFIX). */
export const DEFAULT_QUEUE_PREFIX = 'fulfillment-sync';

/** The whole effective configuration: typed, validated, frozen. */
export interface Config {
  databaseUrl: string;
  /** How long a statement or an answer from Postgres may take, and TCP keepalive (src/db/limits.ts). */
  database: DatabaseSettings;
  /** FULFILLMENT_READER_ROLE: the role `migrate` gives read access to schema fulfillment; undefined: none. */
  readerRole: string | undefined;
  /**
   * FULFILLMENT_FULL_READER_ROLE: a role `migrate` gives read access to all of schema fulfillment,
   * consumer personal data in clear; undefined: none. The reader role reads that data masked.
   */
  fullReaderRole: string | undefined;
  /** REDIS_URL as configured (its password included: print it only through redactUrl). */
  redisUrl: string;
  /** Where Redis is: a single node, a Sentinel group or a Cluster, over TLS or not (redisSettings.ts). */
  redis: RedisSettings;
  api: ApiSettings;
  sandbox: boolean;
  supplierIds: readonly string[];
  accountNumbers: readonly string[];
  /** Where the first sync of a scope starts reading; undefined means 30 days before that first run. */
  syncStart: Date | undefined;
  timezone: string;
  /**
   * Which occurrence an offset-less upstream time in the repeated autumn hour means: 'later'
   * (standard time, .NET's reading; the default) or 'earlier' (daylight time).
   */
  ambiguousTime: 'earlier' | 'later';
  streams: Readonly<Record<StreamName, StreamSettings>>;
  events: {
    lowStockThreshold: number;
    lowStockThresholdsBySku: Readonly<Record<string, number>>;
    /** Whether events from a scope's first load (and backfills) are delivered. Default false. */
    deliverInitialLoadEvents: boolean;
  };
  /** Detail calls (orders, INs, products) that keep failing are quarantined after this many attempts. */
  details: { maxAttempts: number };
  /** How a shrinking snapshot or open list is confirmed before anything vanishes. */
  vanishConfirm: VanishConfirmSettings;
  webhooks: {
    /**
     * Whether webhook targets may be loopback, private, link-local or other non-public addresses,
     * and plain http. Default false: a webhook URL must not reach into the worker's network.
     */
    allowPrivateTargets: boolean;
    /** How long one delivery attempt may take before it counts as failed (default 15 s). */
    timeoutMs: number;
    /**
     * The longest wait between two attempts: each wait of the Standard Webhooks schedule is capped
     * at it (same number of attempts). Default 24 h, the schedule unchanged; lower it where retries
     * must come within minutes (local receivers, the chaos suite).
     */
    retryMaxDelayMs: number;
    /** Attempts in flight at once per endpoint whose max_concurrency is null (default 10). */
    endpointConcurrency: number;
    /** Attempts in flight at once in one worker over all endpoints (default 1000: sockets, memory). */
    maxInFlight: number;
  };
  /**
   * How polling shares the upstream budget: `budgetShare` of FULFILLMENT_RATE_LIMIT_RPS
   * (FULFILLMENT_POLL_BUDGET_SHARE, default 0.5) across all scopes and workers; the rest is left for
   * detail calls, backfills and retries.
   */
  polling: { budgetShare: number };
  worker: { concurrency: number; shutdownTimeoutMs: number };
  /** How long the worker keeps its own bookkeeping (src/retention/); 0 days: keep forever. */
  retention: RetentionSettings;
  httpPort: number;
  /** HTTP_PORT_FILE: where the worker writes the port it listens on (HTTP_PORT=0 picks any); undefined: nowhere. */
  httpPortFile: string | undefined;
  /**
   * Redis key prefix of the queues and of the shared rate limit; separates deployments on one Redis.
   * With a Cluster it carries a hash tag (default `{fulfillment-sync}`), so each multi-key script
   * stays in one slot.
   */
  queuePrefix: string;
  dashboard: { user: string | undefined; password: string | undefined };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
}

/**
 * Days each bookkeeping table keeps its rows (0: forever) and how the pruner runs. What always stays
 * whatever the days (the last run of a stream and scope, events still to be delivered) is in
 * src/retention/rules.ts.
 */
export interface RetentionSettings {
  runsDays: number;
  eventsDays: number;
  deliveriesDays: number;
  rejectedDays: number;
  backfillWindowsDays: number;
  /** How often the worker prunes; 0: never on a schedule (`fulfillment-sync prune` by hand). */
  pruneEveryMinutes: number;
  /** Rows deleted per transaction: small, so a sync or the relay never waits long on a pruned row. */
  batchSize: number;
  /**
   * Least pause between two batches, leaving the disk and the WAL to syncs and the relay; longer
   * after a slow batch (src/retention/pace.ts); 0: full speed (bench:growth).
   */
  batchPauseMs: number;
}

/**
 * Limits of every Postgres session the worker and the CLI open (src/db/limits.ts); 0 ms: none.
 * Migrations run on their own connection, without limits.
 */
export interface DatabaseSettings {
  /** DATABASE_STATEMENT_TIMEOUT_MS: Postgres cancels a statement that runs or waits longer (default 60 s). */
  statementTimeoutMs: number;
  /**
   * DATABASE_QUERY_TIMEOUT_MS: a query whose answer has not come after this long fails and its
   * connection is dropped (a dead network path); longer than the statement timeout, so Postgres's
   * own cancellation comes first (default: the statement timeout and 30 s).
   */
  queryTimeoutMs: number;
  /**
   * DATABASE_LONG_STATEMENT_TIMEOUT_MS: the statement timeout of work that is long by nature: the
   * analytics refresh, the pruner and `prune`, a sync's COPY (default 1 h; its answers may take 30 s
   * more).
   */
  longStatementTimeoutMs: number;
  /** DATABASE_KEEPALIVE_MS: idle time before TCP keepalive probes a connection (default 10 s). */
  keepAliveMs: number;
}
