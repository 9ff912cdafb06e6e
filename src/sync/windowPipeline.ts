import { retryAfterMsOf } from '../api/errors.ts';
import { commitWindow } from './commitWindow.ts';
import { DEFAULT_DETAIL_RETRY } from './detailRequests.ts';
import { detailWindow } from './detailStage.ts';
import { isEmptyPoll } from './emptyPoll.ts';
import { type FailedPart, type FetchedPart, fetchParts, type Part, type PipelineRun } from './fetchParts.ts';
import { describeWindow } from './plan.ts';
import { type PreparedWindow, prepareWindow } from './prepareWindow.ts';
import type { CommitBeside } from './readWindow.ts';
import type { RunStreamArgs } from './runArgs.ts';
import { type RunRecord, recordRun } from './runLog.ts';
import type { RowContext, RunCounts, RunStatus, StreamDefinition, Window } from './types.ts';

/**
 * The windows of one run, stored in order. Each part (a planned window, or its halves when an answer
 * was too large) is fetched, prepared (stored rows read, detail calls made, rows diffed) and
 * committed in its own short transaction. Upstream calls never overlap a transaction: a part is
 * fetched before the previous part's commit opens. While a part commits, the next one, already
 * fetched, is prepared beside it when nothing the commit writes can change what that preparation
 * reads (`preparesBeside`): Postgres ingests the COPY while this process builds and diffs the next
 * rows, so a long backfill costs about the larger of the two, not their sum.
 */

/** Outcome of one part. */
export interface WindowOutcome extends RunCounts {
  status: RunStatus;
  error?: string;
  /** How long upstream asked us to wait (Retry-After) when that failed the window. */
  retryAfterMs?: number;
  /** A snapshot window whose vanish detection was suspended. */
  vanishSkipped?: boolean;
  /** Rows a large shrink no second read confirmed kept (nothing of it vanished). */
  vanishWithheld?: number;
  /** How many answers withheld them (a snapshot's, and each detail's whose children stayed). */
  vanishWithheldAnswers?: number;
  repaired?: number;
  detailFailures?: number;
  /** The sync.runs row of a stored window. */
  runId?: number;
}

type PreparedPart<R> = (FetchedPart<R> & { prepared: PreparedWindow<R> }) | FailedPart;

/** Zero counts, to add outcomes to. */
export function zeroCounts(): RunCounts {
  return { fetched: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, apiCalls: 0, events: 0 };
}

/**
 * Whether a stream's next part may be prepared while its previous part commits: not when it goes
 * through the detail stage (upstream calls, and the detail queue a commit updates), or reads what a
 * commit changes beyond the rows' own keys (a snapshot's vanished rows).
 */
export function preparesBeside(stream: StreamDefinition<unknown, unknown>): boolean {
  return !stream.details && !stream.entity.snapshot;
}

/**
 * Runs `windows` in order through the pipeline, reporting each part's outcome; answers true when one
 * failed (nothing of that part written, the cursor where the previous part left it, a failed run
 * recorded). Never throws.
 */
export async function runWindows<R, C>(
  args: RunStreamArgs<R, C>,
  run: PipelineRun,
  windows: readonly Window[],
  report: (outcome: WindowOutcome) => void,
): Promise<boolean> {
  const beside = preparesBeside(args.stream as StreamDefinition<unknown, unknown>);
  const parts = fetchParts(args, run, windows);
  const first = await parts.next();
  if (first.done) return false;
  let current: PreparedPart<R> = await prepare(args, run, first.value);
  for (;;) {
    if ('failed' in current) {
      report(await recordFailure(args, run, current));
      await parts.return(undefined);
      return true;
    }
    // The next part is fetched now, while nothing is open, when it will be prepared beside this commit.
    const next = beside ? await parts.next() : undefined;
    const part = current;
    const committing = commitPart(args, run, part).catch((error: unknown) =>
      recordFailure(args, run, { failed: true, window: part.window, startedAt: part.startedAt, error }),
    );
    const preparing =
      next && !next.done
        ? prepare(args, run, next.value, { committed: committing, keys: part.prepared.keys })
        : undefined;
    const outcome = await committing;
    report(outcome);
    if (outcome.status === 'failed') {
      await preparing;
      await parts.return(undefined);
      return true;
    }
    if (preparing) current = await preparing;
    else {
      const following = next ?? (await parts.next());
      if (following.done) return false;
      current = await prepare(args, run, following.value);
    }
  }
}

/**
 * Runs a fetched part through the detail stage (detailStage.ts: the only upstream calls after the
 * list calls) and prepares it (prepareWindow.ts: no upstream call); a failure becomes a failed part.
 */
async function prepare<R, C>(
  args: RunStreamArgs<R, C>,
  run: PipelineRun,
  part: Part<R>,
  after?: CommitBeside,
): Promise<PreparedPart<R>> {
  if ('failed' in part) return part;
  const { stream, scope, config } = args;
  const ctx: RowContext = {
    scope,
    timezone: config.timezone,
    ambiguousTime: config.ambiguousTime,
    now: run.now,
  };
  const window = part.window;
  try {
    const detailed = await detailWindow({
      db: args.pool,
      client: args.client,
      stream,
      scope,
      window,
      ctx,
      fetched: part.result,
      after,
      onProgress: args.onFetchProgress,
      settings: config.vanishConfirm,
      checkDeadline: run.checkDeadline,
    });
    const prepared = await prepareWindow({
      db: args.pool,
      stream: stream as StreamDefinition<R, unknown>,
      scope,
      window,
      ctx,
      fetched: part.result,
      detailed,
    });
    return { ...part, prepared };
  } catch (error) {
    return { failed: true, window, startedAt: part.startedAt, error };
  }
}

/** Commits a prepared part in its transaction; throws (after a rollback) when that fails. */
async function commitPart<R, C>(
  args: RunStreamArgs<R, C>,
  run: PipelineRun,
  part: FetchedPart<R> & { prepared: PreparedWindow<R> },
): Promise<WindowOutcome> {
  const { pool, stream, scope, config, logger } = args;
  const { prepared, window, result: fetched, details } = part;
  const log = logger.child({
    stream: stream.name,
    scope: scope.id,
    window: describeWindow(window, config.timezone),
  });
  const counts = zeroCounts();
  counts.apiCalls = fetched.apiCalls + prepared.apiCalls;
  counts.fetched = fetched.records.length + fetched.rejected.length + prepared.fetchedByKey;
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
  const withheld = fetched.shrink?.withheld ? fetched.shrink : undefined;
  if (withheld)
    details.vanishWithheld = { keptRows: withheld.kept, heldRows: withheld.held, answerRows: withheld.rows };
  const kept = prepared.childrenWithheld;
  if (kept.length > 0) details.childrenWithheld = kept.slice(0, 20);
  const withheldAnswers = (withheld ? 1 : 0) + kept.length;
  const withheldRows = kept.reduce((sum, w) => sum + w.keptRows, withheld?.kept ?? 0);
  const cursor = run.move(window, part.last);
  const emptyPoll = isEmptyPoll(prepared, {
    movesCursor: cursor !== undefined,
    details,
    vanishWithheld: withheldRows,
  });
  const committed = await commitWindow({
    pool,
    stream: stream as StreamDefinition<R, unknown>,
    scope,
    window,
    prepared,
    lease: run.lease,
    now: run.now,
    eventSink: args.eventSink,
    eventPolicy: run.policy,
    cursor,
    emptyPoll,
    detailRetry: { ...DEFAULT_DETAIL_RETRY, maxAttempts: config.details.maxAttempts },
    run: {
      ...runRecord(args, run, window, part.startedAt),
      details,
      ...counts,
      vanishWithheld: withheldRows,
    },
  });
  counts.events = committed.events;
  log.debug({ ...counts, status: committed.status }, 'window stored');
  return {
    ...counts,
    status: committed.status,
    ...(committed.runId !== undefined ? { runId: committed.runId } : {}),
    ...(prepared.vanishSkipped ? { vanishSkipped: true } : {}),
    ...(withheldAnswers > 0 ? { vanishWithheld: withheldRows, vanishWithheldAnswers: withheldAnswers } : {}),
    ...(prepared.repaired > 0 ? { repaired: prepared.repaired } : {}),
    ...(prepared.detailFailures.length > 0 ? { detailFailures: prepared.detailFailures.length } : {}),
  };
}

/** The run-log fields of a window. */
function runRecord<R, C>(args: RunStreamArgs<R, C>, run: PipelineRun, window: Window, startedAt: Date) {
  const timeless = window.kind === 'snapshot' || window.kind === 'filter';
  return {
    stream: args.stream.name,
    scope: args.scope,
    mode: args.mode ?? ('incremental' as const),
    leaseFence: run.lease?.fence ?? null,
    windowStart: timeless ? null : window.start,
    windowEnd: timeless ? null : window.end,
    window: describeWindow(window, args.config.timezone),
    startedAt,
    error: undefined,
  };
}

/** Records a part that failed (nothing of it written) and answers its outcome; never throws. */
async function recordFailure<R, C>(
  args: RunStreamArgs<R, C>,
  run: PipelineRun,
  part: FailedPart,
): Promise<WindowOutcome> {
  const label = describeWindow(part.window, args.config.timezone);
  const log = args.logger.child({ stream: args.stream.name, scope: args.scope.id, window: label });
  const message = part.error instanceof Error ? part.error.message : String(part.error);
  log.error({ err: message }, 'window failed; nothing written, cursor kept');
  const failed: RunRecord = {
    ...runRecord(args, run, part.window, part.startedAt),
    ...zeroCounts(),
    status: 'failed',
    finishedAt: new Date(),
    error: `${label}: ${message}`,
  };
  await recordRun(args.pool, failed).catch((e: unknown) =>
    log.error({ err: (e as Error).message }, 'could not record the failed run'),
  );
  const retryAfterMs = retryAfterMsOf(part.error);
  return {
    ...zeroCounts(),
    status: 'failed',
    error: `${label}: ${message}`,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}
