import type { Pool } from 'pg';
import { advanceCursor, type CursorMove, readCursor, recordRunSummary } from './cursor.ts';
import { acquireStreamLease } from './lease.ts';
import type { RunStreamArgs } from './runArgs.ts';
import { startRunDeadline } from './runDeadline.ts';
import { nextSplitMemory, rememberedNodes, type SplitMemory, type SplitTally } from './splitMemory.ts';
import type { CursorState, EventPolicy, RunCounts, StreamRunResult, Window } from './types.ts';
import { runWindows, type WindowOutcome, zeroCounts } from './windowPipeline.ts';
import { nextWindowSize, plannedWindowSize, type ReadWindow, type SizeDecision } from './windowSize.ts';

export type { RunStreamArgs } from './runArgs.ts';

const DAY = 86_400_000;

/**
 * Runs one stream for one scope: under its lease, plans windows from its cursor and runs them in
 * order through the window pipeline (windowPipeline.ts), stopping at the first failure. No
 * connection is held across an upstream call: each window is fetched (and its details) first, then
 * written in one short transaction that checks the lease.
 */
export async function runStream<R, C>(args: RunStreamArgs<R, C>): Promise<StreamRunResult> {
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
    // The run's clock is read once it holds the lease, not before waiting for it: the holder it
    // waited for wrote at its own, later clock, and this run's writes come after those.
    const now = args.now ?? new Date();
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
    // The run's last window marks the initial load done in its own transaction: no failure can
    // fall between storing the load's last rows and the mark, and leave the next run's real
    // changes taken for history (suppressed).
    const move = (window: Window, last: boolean): CursorMove | undefined =>
      keepsCursor
        ? undefined
        : {
            advanceTo: window.advanceTo,
            at: now,
            initialLoad: firstLoad ? (last ? 'done' : 'pending') : undefined,
            loadedFrom,
          };
    const read: ReadWindow[] = [];
    const checkDeadline = startRunDeadline(config.api.runDeadlineMs);
    // Filter splits are remembered across planned runs only (explicit windows: tests, CLI lists).
    const learnsSplits = !keepsCursor && !args.windows;
    const split = learnsSplits
      ? { remembered: rememberedNodes(cursor.split, now), tally: new Map() }
      : undefined;
    await runWindows(args, { now, lease, policy, move, read, checkDeadline, split }, windows, (outcome) =>
      add(total, outcome),
    );
    // A first load with nothing to read is complete too (no window transaction to carry the mark).
    if (firstLoad && !keepsCursor && windows.length === 0)
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
        split: split && total.status !== 'failed' ? nextSplitMemoryOf(cursor, split, config, now) : undefined,
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
  if (outcome.vanishWithheld !== undefined) {
    const soFar = total.vanishWithheld ?? { answers: 0, rows: 0 };
    const answers = soFar.answers + (outcome.vanishWithheldAnswers ?? 1);
    total.vanishWithheld = { answers, rows: soFar.rows + outcome.vanishWithheld };
  }
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

/** The split memory after a run that stored all its windows (null: nothing to remember any more). */
function nextSplitMemoryOf(
  cursor: CursorState,
  split: { remembered: ReadonlySet<string>; tally: ReadonlyMap<string, SplitTally> },
  config: RunStreamArgs<unknown, unknown>['config'],
  now: Date,
): SplitMemory | null {
  const next = nextSplitMemory({
    previous: cursor.split,
    used: split.remembered.size > 0,
    tally: split.tally,
    maxRows: config.api.maxRowsPerWindow,
    now,
  });
  return next ?? null;
}

/** Adds the next run's window size, and why, to the details of a run row (the run log). */
async function noteWindowSize(pool: Pool, runId: number, decision: SizeDecision): Promise<void> {
  await pool.query(
    `UPDATE sync.runs SET details = coalesce(details, '{}'::jsonb) || jsonb_build_object('windowSize', $2::jsonb)
      WHERE id = $1`,
    [runId, JSON.stringify(decision)],
  );
}
