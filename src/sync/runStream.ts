import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import { RetryableUpstreamError } from '../api/errors.ts';
import type { Config } from '../config/types.ts';
import { applyWindow } from './applyWindow.ts';
import { fetchWithSplit } from './fetchSplit.ts';
import { describeWindow } from './plan.ts';
import {
  advanceCursor,
  type InitialLoadMark,
  lockStreamScope,
  readCursor,
  recordRejected,
  recordRun,
  reserveRunId,
  unlockStreamScope,
} from './state.ts';
import type {
  EventSink,
  RunCounts,
  RunStatus,
  Scope,
  StreamDefinition,
  StreamRunResult,
  Window,
} from './types.ts';

const DAY = 86_400_000;

/** Arguments of `runStream` (and `runStreamWindow`). */
export interface RunStreamArgs<R, C> {
  pool: Pool;
  client: C;
  config: Config;
  logger: Logger;
  stream: StreamDefinition<R, C>;
  scope: Scope;
  /** 'backfill' marks events as initial-load; windows usually given explicitly then. */
  mode?: 'incremental' | 'backfill';
  /** Windows to run instead of the stream's plan (backfill, tests). */
  windows?: readonly Window[];
  eventSink?: EventSink;
  /** The current time (the simulator's clock in tests); default: now. */
  now?: Date;
  /** 'wait' (default): a second run of the same stream and scope waits; 'skip': it answers skipped. */
  lockMode?: 'wait' | 'skip';
}

function zeroCounts(): RunCounts {
  return { fetched: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, apiCalls: 0, events: 0 };
}

/**
 * Runs one stream for one scope: under the stream+scope lock, plans windows from its cursor and
 * runs them in order, stopping at the first failure. The lock is held from the cursor read to the
 * last commit, so a run that waited for another fetches only after that one stored its data.
 */
export async function runStream<R, C>(args: RunStreamArgs<R, C>): Promise<StreamRunResult> {
  const now = args.now ?? new Date();
  const { stream, scope, config } = args;
  const total: StreamRunResult = {
    stream: stream.name,
    scope,
    status: 'succeeded',
    windows: 0,
    ...zeroCounts(),
  };
  const locked = await withStreamLock(args, async (conn) => {
    const cursor = await readCursor(conn, stream.name, scope);
    const settings = config.streams[stream.name];
    const start = config.syncStart ?? new Date(now.getTime() - 30 * DAY);
    const windows =
      args.windows ?? stream.planWindows({ cursor, now, settings, timezone: config.timezone, start });
    // The initial load lasts until one run has stored all its planned windows (the cursor reached
    // the end of its plan), not merely until a first window succeeded: a first run that fails
    // half-way must not have the rest of its history delivered later as live events.
    const firstLoad = cursor.lastSuccessAt === undefined || cursor.initialLoadPending === true;
    const initialLoad = args.mode === 'backfill' || firstLoad;
    for (const [i, window] of windows.entries()) {
      const mark: InitialLoadMark | undefined =
        firstLoad && args.mode !== 'backfill' ? (i === windows.length - 1 ? 'done' : 'pending') : undefined;
      const outcome = await windowOn(conn, { ...args, now, window, initialLoad, initialLoadMark: mark });
      total.windows += 1;
      for (const k of Object.keys(zeroCounts()) as (keyof RunCounts)[]) total[k] += outcome[k];
      if (outcome.vanishSkipped) total.vanishChecksSkipped = (total.vanishChecksSkipped ?? 0) + 1;
      if (outcome.status === 'partial' && total.status === 'succeeded') total.status = 'partial';
      if (outcome.status === 'failed') {
        total.status = 'failed';
        total.error = outcome.error;
        if (outcome.retryAfterMs !== undefined) total.retryAfterMs = outcome.retryAfterMs;
        break;
      }
    }
  });
  if (!locked) {
    args.logger
      .child({ stream: stream.name, scope: scope.id })
      .info('another run holds this stream and scope: skipped');
    total.status = 'skipped';
  }
  return total;
}

/**
 * Runs `body` on a dedicated pooled connection holding the session-level stream+scope advisory
 * lock; answers false (body not run) when `lockMode` is 'skip' and another session holds it. The
 * lock is released and the connection returned in every case; a connection that could not be
 * unlocked is destroyed, which ends its session and so frees the lock.
 */
async function withStreamLock<R, C>(
  args: Pick<RunStreamArgs<R, C>, 'pool' | 'stream' | 'scope' | 'lockMode'>,
  body: (conn: PoolClient) => Promise<void>,
): Promise<boolean> {
  const { stream, scope } = args;
  const conn = await args.pool.connect();
  let broken: Error | undefined;
  try {
    let held = false;
    try {
      held = await lockStreamScope(conn, stream.name, scope, args.lockMode ?? 'wait');
    } catch (error) {
      broken = error as Error;
      throw error;
    }
    if (!held) return false;
    try {
      await body(conn);
    } finally {
      await unlockStreamScope(conn, stream.name, scope).catch((e: unknown) => {
        broken = e as Error;
      });
    }
    return true;
  } finally {
    conn.release(broken);
  }
}
/** Outcome of one window. */
export interface WindowOutcome extends RunCounts {
  status: RunStatus;
  error?: string;
  /** How long upstream asked us to wait (Retry-After) when that failed the window. */
  retryAfterMs?: number;
  /** A snapshot window with rejected records: vanished rows were not looked for. */
  vanishSkipped?: boolean;
}

/**
 * One window on its own, under the stream+scope lock (`lockMode` 'skip': answers skipped when
 * another run holds it). `runStream` runs its windows under one lock for the whole run instead.
 */
export async function runStreamWindow<R, C>(
  args: RunStreamArgs<R, C> & { window: Window; now: Date; initialLoad: boolean },
): Promise<WindowOutcome> {
  let outcome: WindowOutcome = { ...zeroCounts(), status: 'skipped' };
  await withStreamLock(args, async (conn) => {
    outcome = await windowOn(conn, args);
  });
  return outcome;
}

/**
 * One window on `conn`, whose session holds the stream+scope lock: fetched (outside the
 * transaction, with adaptive splitting), then diffed, written, logged and the cursor advanced in
 * ONE transaction. A failure rolls back and is recorded as a 'failed' run in its own transaction;
 * never thrown.
 */
async function windowOn<R, C>(
  tx: PoolClient,
  args: RunStreamArgs<R, C> & {
    window: Window;
    now: Date;
    initialLoad: boolean;
    /** Set on the windows of an initial load: keeps it pending, or ends it on the run's last window. */
    initialLoadMark?: InitialLoadMark | undefined;
  },
): Promise<WindowOutcome> {
  const { pool, stream, scope, window, config, logger } = args;
  const startedAt = new Date();
  const label = describeWindow(window, config.timezone);
  const counts = zeroCounts();
  const log = logger.child({ stream: stream.name, scope: scope.id, window: label });
  const run = (status: RunStatus, error?: string) => ({
    stream: stream.name,
    scope,
    mode: args.mode ?? 'incremental',
    windowStart: window.kind === 'snapshot' || window.kind === 'filter' ? null : window.start,
    windowEnd: window.kind === 'snapshot' || window.kind === 'filter' ? null : window.end,
    window: label,
    startedAt,
    finishedAt: new Date(),
    status,
    error,
    ...counts,
  });
  try {
    const fetched = await fetchWithSplit({
      stream,
      client: args.client,
      scope,
      window,
      timezone: config.timezone,
      db: tx,
      maxRows: config.api.maxRowsPerWindow,
      minSize: config.streams[stream.name].minWindowSize,
      onSplit: (w) => log.info({ split: describeWindow(w, config.timezone) }, 'window too large, splitting'),
    });
    counts.apiCalls += fetched.apiCalls;
    counts.fetched = fetched.records.length + fetched.rejected.length;

    await tx.query('BEGIN');
    const applied = await applyWindow({
      tx,
      stream,
      client: args.client,
      scope,
      window,
      timezone: config.timezone,
      records: fetched.records,
      upstreamRejected: fetched.rejected.length,
      logger: log,
    });
    const rejected = [...fetched.rejected, ...applied.rejected];
    counts.inserted = applied.inserted;
    counts.updated = applied.updated;
    counts.unchanged = applied.unchanged;
    counts.rejected = rejected.length;
    counts.apiCalls += applied.apiCalls;
    const runId = await reserveRunId(tx);
    if (args.eventSink && stream.subjectKind && applied.changes.length > 0) {
      counts.events = await args.eventSink({
        runId,
        tx,
        stream: stream.name,
        scope,
        subjectKind: stream.subjectKind,
        changes: applied.changes,
        detectedAt: args.now,
        initialLoad: args.initialLoad,
      });
    }
    if (stream.afterWrite) {
      const extra = await stream.afterWrite({
        tx,
        client: args.client,
        scope,
        window,
        logger: log,
        changes: applied.changes,
      });
      counts.apiCalls += extra?.apiCalls ?? 0;
    }
    // A backfill re-reads the past beside the incremental sync: creating or stamping the cursor
    // would make a never-synced scope's first incremental run look like a repeat (its events
    // delivered, not an initial load) and `status` report the backfill as the last success.
    if (args.mode !== 'backfill')
      await advanceCursor(tx, stream.name, scope, window.advanceTo, args.now, args.initialLoadMark);
    const status: RunStatus = rejected.length > 0 ? 'partial' : 'succeeded';
    const note = applied.vanishSkipped
      ? `vanish detection skipped: ${rejected.length} rejected record(s); the next clean snapshot zeroes rows that truly vanished`
      : undefined;
    await recordRun(tx, run(status, note), runId);
    await recordRejected(tx, stream.name, scope, runId, rejected);
    await tx.query('COMMIT');
    log.debug({ ...counts, status }, 'window stored');
    return { ...counts, status, ...(applied.vanishSkipped ? { vanishSkipped: true } : {}) };
  } catch (error) {
    await tx.query('ROLLBACK').catch(() => undefined);
    const message = error instanceof Error ? error.message : String(error);
    log.error({ err: message }, 'window failed; cursor kept');
    // On the locked connection first: a second pool connection could be held by runs waiting on
    // this lock. The pool only if this connection broke (then its session, and lock, are gone).
    const failed = run('failed', `${label}: ${message}`);
    await recordRun(tx, failed)
      .catch(() => recordRun(pool, failed))
      .catch((e: unknown) => log.error({ err: (e as Error).message }, 'could not record the failed run'));
    const retryAfterMs = retryAfterMsOf(error);
    return {
      ...counts,
      inserted: 0,
      updated: 0,
      unchanged: 0,
      status: 'failed',
      error: `${label}: ${message}`,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    };
  }
}

/** Upstream's Retry-After carried by a failure (possibly as the `cause` of a wrapping error). */
function retryAfterMsOf(error: unknown): number | undefined {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; e = e.cause, depth += 1) {
    if (e instanceof RetryableUpstreamError && e.retryAfterMs !== undefined && e.retryAfterMs > 0)
      return e.retryAfterMs;
  }
  return undefined;
}
