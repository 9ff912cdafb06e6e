import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { retryAfterMsOf } from '../api/errors.ts';
import type { Config } from '../config/types.ts';
import { commitWindow } from './commitWindow.ts';
import { advanceCursor, type CursorMove, readCursor, recordRunSummary } from './cursor.ts';
import { DEFAULT_DETAIL_RETRY, type DueRequests, dueDetailRequests } from './detailRequests.ts';
import { fetchLeaves } from './fetchSplit.ts';
import { acquireStreamLease, LeaseLostError, type StreamLease } from './lease.ts';
import { describeWindow } from './plan.ts';
import { prepareWindow } from './prepareWindow.ts';
import { type RunRecord, recordRun } from './runLog.ts';
import type {
  CursorState,
  EventPolicy,
  EventSink,
  FetchResult,
  RowContext,
  RunCounts,
  RunStatus,
  Scope,
  StreamDefinition,
  StreamRunResult,
  Window,
} from './types.ts';
import {
  nextWindowSize,
  plannedWindowSize,
  type ReadWindow,
  type SizeDecision,
  windowSizeOf,
} from './windowSize.ts';

const DAY = 86_400_000;

/** Arguments of `runStream`. */
export interface RunStreamArgs<R, C> {
  pool: Pool;
  client: C;
  config: Config;
  logger: Logger;
  stream: StreamDefinition<R, C>;
  scope: Scope;
  /** 'backfill': windows usually given explicitly; the cursor is never created or moved. */
  mode?: 'incremental' | 'backfill';
  /** Windows to run instead of the stream's plan (backfill, tests). */
  windows?: readonly Window[];
  eventSink?: EventSink;
  /** Deliver events that would be history (`--emit-events`). */
  emitEvents?: boolean;
  /** The current time (the simulator's clock in tests); default: now. */
  now?: Date;
  /** 'wait' (default): a second run of the same stream and scope waits; 'skip': it answers skipped. */
  lockMode?: 'wait' | 'skip';
  /** How long the run's lease lasts without renewal (default 30 s). */
  leaseTtlMs?: number;
}

function zeroCounts(): RunCounts {
  return { fetched: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, apiCalls: 0, events: 0 };
}

/**
 * Runs one stream for one scope: under its lease, plans windows from its cursor and runs them in
 * order, stopping at the first failure. No connection is held between statements: each window is
 * fetched (and its details) first, then written in one short transaction that checks the lease.
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
  const log = args.logger.child({ stream: stream.name, scope: scope.id });
  const lease = await acquireStreamLease(args.pool, stream.name, scope, {
    mode: args.lockMode ?? 'wait',
    ...(args.leaseTtlMs !== undefined ? { ttlMs: args.leaseTtlMs } : {}),
    onWait: () => log.info('another run holds this stream and scope: waiting for it to finish'),
  });
  if (!lease) {
    log.info('another run holds this stream and scope: skipped');
    return { ...total, status: 'skipped' };
  }
  try {
    const cursor = await readCursor(args.pool, stream.name, scope);
    const settings = config.streams[stream.name];
    const start = firstLoadStart(
      config.syncStart ?? new Date(now.getTime() - 30 * DAY),
      settings.historyDays,
      now,
    );
    const windows =
      args.windows ?? stream.planWindows({ cursor, now, settings, timezone: config.timezone, start });
    // The initial load lasts until one run has stored all its planned windows, not merely until a
    // first window succeeded: a first run that fails half-way must not have the rest of its
    // history delivered later as live events.
    const firstLoad = cursor.lastSuccessAt === undefined || cursor.initialLoadPending === true;
    const policy = eventPolicy(
      cursor,
      firstLoad,
      Boolean(args.emitEvents) || config.events.deliverInitialLoadEvents,
    );
    const loadedFrom = firstLoad ? earliestStart(windows, start) : undefined;
    const keepsCursor = args.mode === 'backfill';
    const move = (window: Window): CursorMove | undefined =>
      keepsCursor
        ? undefined
        : {
            advanceTo: window.advanceTo,
            at: now,
            initialLoad: firstLoad ? 'pending' : undefined,
            loadedFrom,
          };
    const read: ReadWindow[] = [];
    for (const window of windows) {
      const failed = await runWindow(args, { window, now, lease, policy, move, read }, (outcome) =>
        add(total, outcome),
      );
      if (failed) break;
    }
    // Every planned window is stored: the initial load (if this was one) is complete.
    if (firstLoad && !keepsCursor && total.status !== 'failed')
      await advanceCursor(args.pool, stream.name, scope, {
        advanceTo: undefined,
        at: now,
        initialLoad: 'done',
      });
    if (!keepsCursor && total.windows > 0) {
      const planned = plannedWindowSize({ cursor, settings });
      // Sizes are learnt from planned runs only: explicit windows (tests, CLI lists) say nothing.
      const decision = args.windows
        ? undefined
        : nextWindowSize({
            planned,
            max: settings.windowSize,
            maxRows: config.api.maxRowsPerWindow,
            windows: read,
          });
      if (decision) {
        log.info({ from: planned, to: decision.size }, `window size: ${decision.reason}`);
        if (total.lastRunId !== undefined) await noteWindowSize(args.pool, total.lastRunId, decision);
      }
      await recordRunSummary(args.pool, stream.name, scope, {
        calls: total.apiCalls,
        windows: total.windows,
        at: now,
        windowSize: decision?.size,
      });
      total.windowSize = { planned, ...(decision ? { next: decision.size, reason: decision.reason } : {}) };
    }
  } finally {
    await lease.release();
  }
  return total;
}

/** Adds one stored (or failed) window to the run's totals. */
function add(total: StreamRunResult, outcome: WindowOutcome): void {
  total.windows += 1;
  if (outcome.runId !== undefined) total.lastRunId = outcome.runId;
  for (const k of Object.keys(zeroCounts()) as (keyof RunCounts)[]) total[k] += outcome[k];
  if (outcome.vanishSkipped) total.vanishChecksSkipped = (total.vanishChecksSkipped ?? 0) + 1;
  if (outcome.repaired) total.repaired = (total.repaired ?? 0) + outcome.repaired;
  if (outcome.detailFailures) total.detailFailures = (total.detailFailures ?? 0) + outcome.detailFailures;
  if (outcome.status === 'partial' && total.status === 'succeeded') total.status = 'partial';
  if (outcome.status === 'failed') {
    total.status = 'failed';
    total.error = outcome.error;
    if (outcome.retryAfterMs !== undefined) total.retryAfterMs = outcome.retryAfterMs;
  }
}

/**
 * How this run's events are delivered. Until the scope's initial load is complete everything is
 * history; afterwards a change is live whichever run finds it, except a record first seen with
 * an event time older than what the initial load read from (e.g. a backfill of older months).
 */
function eventPolicy(cursor: CursorState, firstLoad: boolean, deliverHistory: boolean): EventPolicy {
  return { initialLoad: firstLoad, historyBefore: firstLoad ? undefined : cursor.loadedFrom, deliverHistory };
}

/** Where a first load starts: the sync start, or `historyDays` back if that is later. */
function firstLoadStart(syncStart: Date, historyDays: number, now: Date): Date {
  if (historyDays <= 0) return syncStart;
  return new Date(Math.max(syncStart.getTime(), now.getTime() - historyDays * DAY));
}

/** The oldest time an initial load's windows read (time windows), else where it started. */
function earliestStart(windows: readonly Window[], start: Date): Date {
  let earliest = start.getTime();
  for (const w of windows)
    if (w.kind === 'minute' || w.kind === 'day') earliest = Math.min(earliest, w.start.getTime());
  return new Date(earliest);
}

/** Outcome of one window. */
export interface WindowOutcome extends RunCounts {
  status: RunStatus;
  error?: string;
  /** How long upstream asked us to wait (Retry-After) when that failed the window. */
  retryAfterMs?: number;
  /** A snapshot window whose vanish detection was suspended. */
  vanishSkipped?: boolean;
  repaired?: number;
  detailFailures?: number;
  /** The sync.runs row of a stored window. */
  runId?: number;
}

/** Adds the next run's window size, and why, to the details of a run row (the run log). */
async function noteWindowSize(pool: Pool, runId: number, decision: SizeDecision): Promise<void> {
  await pool.query(
    `UPDATE sync.runs SET details = coalesce(details, '{}'::jsonb) || jsonb_build_object('windowSize', $2::jsonb)
      WHERE id = $1`,
    [runId, JSON.stringify(decision)],
  );
}

interface WindowRun {
  window: Window;
  now: Date;
  lease: StreamLease | undefined;
  policy: EventPolicy;
  /** How storing a window moves the cursor; undefined: it does not (backfills). */
  move: (window: Window) => CursorMove | undefined;
  /** Collects every stored time window's size and answer size (adaptive windows). */
  read: ReadWindow[];
}

/**
 * One planned window: its due detail requests read, then each part of it (the window itself, or
 * its halves when its answer was too large) fetched, prepared and written in its own short
 * transaction before the next part is read. Reports each part's outcome; answers true when one
 * failed (nothing of that part written, the cursor where the previous part left it, a failed run
 * recorded). Never throws.
 */
async function runWindow<R, C>(
  args: RunStreamArgs<R, C>,
  w: WindowRun,
  report: (outcome: WindowOutcome) => void,
): Promise<boolean> {
  const { pool, stream, scope, config, logger } = args;
  let current = w.window;
  let startedAt = new Date();
  try {
    if (w.lease?.lost()) throw new LeaseLostError(stream.name, scope);
    const due: DueRequests = stream.detailQueue
      ? await dueDetailRequests(pool, stream.name, scope.id, w.now, stream.detailQueue.limit)
      : { requests: [], readAt: new Date(0).toISOString() };
    const splits: string[] = [];
    const leaves = fetchLeaves({
      stream,
      fetch: {
        client: args.client,
        scope,
        timezone: config.timezone,
        now: w.now,
        db: pool,
        due: due.requests,
      },
      window: w.window,
      minSize: config.streams[stream.name].minWindowSize,
      onSplit: (split) => {
        splits.push(describeWindow(split, config.timezone));
        logger
          .child({ stream: stream.name, scope: scope.id })
          .info({ split: describeWindow(split, config.timezone) }, 'window too large, splitting');
      },
    });
    for (;;) {
      startedAt = new Date();
      const next = await leaves.next();
      if (next.done) return false;
      current = next.value.window;
      const details: Record<string, unknown> = splits.length > 0 ? { splitFrom: splits.splice(0) } : {};
      const leaf = next.value;
      const size = windowSizeOf(leaf.window, config.timezone);
      if (size !== undefined)
        w.read.push({
          size,
          rows: leaf.result.records.length + leaf.result.rejected.length,
          depth: leaf.depth,
        });
      report(await storeLeaf(args, w, leaf.window, leaf.result, due, startedAt, details));
    }
  } catch (error) {
    report(await recordFailure(args, current, startedAt, error));
    return true;
  }
}

/** One fetched window prepared and written; a failure is thrown to `runWindow`. */
async function storeLeaf<R, C>(
  args: RunStreamArgs<R, C>,
  w: WindowRun,
  window: Window,
  fetched: FetchResult<R>,
  due: DueRequests,
  startedAt: Date,
  details: Record<string, unknown>,
): Promise<WindowOutcome> {
  const { pool, stream, scope, config, logger } = args;
  const label = describeWindow(window, config.timezone);
  const log = logger.child({ stream: stream.name, scope: scope.id, window: label });
  const counts = zeroCounts();
  counts.apiCalls = fetched.apiCalls;
  counts.fetched = fetched.records.length + fetched.rejected.length;
  const ctx: RowContext = {
    scope,
    timezone: config.timezone,
    ambiguousTime: config.ambiguousTime,
    now: w.now,
  };
  const prepared = await prepareWindow({
    db: pool,
    client: args.client,
    stream,
    scope,
    window,
    ctx,
    fetched,
    due,
    logger: log,
  });
  counts.apiCalls += prepared.apiCalls;
  counts.inserted = prepared.changes.filter((c) => c.kind === 'inserted').length;
  counts.updated = prepared.changes.length - counts.inserted;
  counts.unchanged = prepared.unchanged;
  counts.rejected = prepared.quarantined;
  for (const warning of prepared.warnings) log.warn(warning.data ?? {}, warning.message);
  if (prepared.warnings.length > 0) details.warnings = prepared.warnings.map((x) => x.message);
  if (prepared.detailFailures.length > 0) {
    log.warn(
      { detailFailures: prepared.detailFailures.length },
      'detail calls failed; retried later with backoff',
    );
    details.detailFailures = prepared.detailFailures.slice(0, 20);
  }
  if (prepared.repaired > 0) details.repaired = prepared.repaired;
  if (prepared.vanishSkipped) details.vanishSkipped = true;
  const committed = await commitWindow({
    pool,
    stream: stream as StreamDefinition<R, unknown>,
    scope,
    window,
    prepared,
    lease: w.lease,
    now: w.now,
    eventSink: args.eventSink,
    eventPolicy: w.policy,
    cursor: w.move(window),
    detailRetry: { ...DEFAULT_DETAIL_RETRY, maxAttempts: config.details.maxAttempts },
    run: { ...runRecord(args, window, startedAt), details, ...counts },
  });
  counts.events = committed.events;
  log.debug({ ...counts, status: committed.status }, 'window stored');
  return {
    ...counts,
    status: committed.status,
    runId: committed.runId,
    ...(prepared.vanishSkipped ? { vanishSkipped: true } : {}),
    ...(prepared.repaired > 0 ? { repaired: prepared.repaired } : {}),
    ...(prepared.detailFailures.length > 0 ? { detailFailures: prepared.detailFailures.length } : {}),
  };
}

/** The run-log fields of a window. */
function runRecord<R, C>(args: RunStreamArgs<R, C>, window: Window, startedAt: Date) {
  const timeless = window.kind === 'snapshot' || window.kind === 'filter';
  return {
    stream: args.stream.name,
    scope: args.scope,
    mode: args.mode ?? ('incremental' as const),
    windowStart: timeless ? null : window.start,
    windowEnd: timeless ? null : window.end,
    window: describeWindow(window, args.config.timezone),
    startedAt,
    error: undefined,
  };
}

/** Records a window that failed (nothing of it written) and reports it; never throws. */
async function recordFailure<R, C>(
  args: RunStreamArgs<R, C>,
  window: Window,
  startedAt: Date,
  error: unknown,
): Promise<WindowOutcome> {
  const label = describeWindow(window, args.config.timezone);
  const log = args.logger.child({ stream: args.stream.name, scope: args.scope.id, window: label });
  const message = error instanceof Error ? error.message : String(error);
  log.error({ err: message }, 'window failed; nothing written, cursor kept');
  const failed: RunRecord = {
    ...runRecord(args, window, startedAt),
    ...zeroCounts(),
    status: 'failed',
    finishedAt: new Date(),
    error: `${label}: ${message}`,
  };
  await recordRun(args.pool, failed).catch((e: unknown) =>
    log.error({ err: (e as Error).message }, 'could not record the failed run'),
  );
  const retryAfterMs = retryAfterMsOf(error);
  return {
    ...zeroCounts(),
    status: 'failed',
    error: `${label}: ${message}`,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}
