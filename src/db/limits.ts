import type { DatabaseSettings } from '../config/types.ts';

/**
 * What one pool's sessions may take (0 ms: no limit), with the settings that decide it, which the
 * errors name. Every pool has them: a statement blocked behind a lock, or a query whose answer is
 * lost on a dead network path, otherwise stops its caller (the dispatcher, a sync) with no error.
 */
export interface SessionLimits {
  /** Postgres's statement_timeout of the session. */
  statementTimeoutMs: number;
  /** Client side: a query without an answer after this long fails and its connection is dropped. */
  queryTimeoutMs: number;
  /** TCP keepalive: idle time before the first probe, so a dead peer is noticed between queries. */
  keepAliveMs: number;
  /** The variables behind the two timeouts, for the errors. */
  statementSetting: string;
  querySetting: string;
}

/** The defaults of the DATABASE_* settings (docs/configuration.md). */
export const DEFAULT_DATABASE_SETTINGS: Readonly<DatabaseSettings> = {
  statementTimeoutMs: 60_000,
  queryTimeoutMs: 90_000,
  longStatementTimeoutMs: 3_600_000,
  keepAliveMs: 10_000,
};

/** How much longer than a long statement its answer may take. */
const LONG_ANSWER_MARGIN_MS = 30_000;

/** The limits of ordinary work: syncs, webhook delivery, readiness, the CLI's commands. */
export function standardLimits(settings: DatabaseSettings = DEFAULT_DATABASE_SETTINGS): SessionLimits {
  return {
    statementTimeoutMs: settings.statementTimeoutMs,
    queryTimeoutMs: settings.queryTimeoutMs,
    keepAliveMs: settings.keepAliveMs,
    statementSetting: 'DATABASE_STATEMENT_TIMEOUT_MS',
    querySetting: 'DATABASE_QUERY_TIMEOUT_MS',
  };
}

/**
 * The limits of work that is long by nature (the analytics refresh, the pruner, a sync's COPY):
 * DATABASE_LONG_STATEMENT_TIMEOUT_MS, its answers 30 s more; 0: none either way.
 */
export function longLimits(settings: DatabaseSettings = DEFAULT_DATABASE_SETTINGS): SessionLimits {
  const long = settings.longStatementTimeoutMs;
  return {
    statementTimeoutMs: long,
    queryTimeoutMs: long > 0 ? long + LONG_ANSWER_MARGIN_MS : 0,
    keepAliveMs: settings.keepAliveMs,
    statementSetting: 'DATABASE_LONG_STATEMENT_TIMEOUT_MS',
    querySetting: 'DATABASE_LONG_STATEMENT_TIMEOUT_MS (and 30 s)',
  };
}
