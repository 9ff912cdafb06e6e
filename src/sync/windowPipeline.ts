import { retryAfterMsOf } from '../api/errors.ts';
import { commitWindow } from './commitWindow.ts';
import type { CursorMove } from './cursor.ts';
import { DEFAULT_DETAIL_RETRY, type DueRequests, dueDetailRequests } from './detailRequests.ts';
import { fetchLeaves } from './fetchSplit.ts';
import { LeaseLostError, type StreamLease } from './lease.ts';
import { describeWindow } from './plan.ts';
import { type PreparedWindow, prepareWindow } from './prepareWindow.ts';
import { type RunRecord, recordRun } from './runLog.ts';
import type { RunStreamArgs } from './runStream.ts';
import type {
  EventPolicy,
  FetchResult,
  RowContext,
  RunCounts,
  RunStatus,
  StreamDefinition,
  Window,
} from './types.ts';
import { type ReadWindow, windowSizeOf } from './windowSize.ts';

/**
 * The windows of one run, stored in order. Each part (a planned window, or its halves when an answer
 * was too large) is fetched, prepared (stored rows read, detail calls made, rows diffed) and
 * committed in its own short transaction. Upstream calls never overlap a transaction: a part is
 * fetched before the previous part's commit opens. While a part commits, the next one, already
 * fetched, is prepared beside it when nothing the commit writes can change what that preparation
 * reads (`preparesBeside`): Postgres ingests the COPY while this process builds and diffs the next
 * rows, so a long backfill costs about the larger of the two, not their sum.
 */

/** What every part of one run shares. */
export interface PipelineRun {
  now: Date;
  lease: StreamLease | undefined;
  policy: EventPolicy;
  /**
   * How storing a window moves the cursor; undefined: it does not (backfills). `last`: the run's
   * last part, whose transaction also marks an initial load done.
   */
  move: (window: Window, last: boolean) => CursorMove | undefined;
  /** Collects every stored time window's size and answer size (adaptive windows). */
  read: ReadWindow[];
  /** Throws once the run's deadline has passed (runDeadline.ts); checked before every call. */
  checkDeadline?: () => void;
}

/** Outcome of one part. */
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

/** A part whose answer is in hand. */
interface FetchedPart<R> {
  window: Window;
  result: FetchResult<R>;
  due: DueRequests;
  startedAt: Date;
  /** Run-log details known from the fetch (the windows split on the way). */
  details: Record<string, unknown>;
  /** The last part of the run's last planned window. */
  last: boolean;
}

/** A part that could not be fetched or prepared: nothing of it is written. */
interface FailedPart {
  failed: true;
  window: Window;
  startedAt: Date;
  error: unknown;
}

type Part<R> = FetchedPart<R> | FailedPart;
type PreparedPart<R> = (FetchedPart<R> & { prepared: PreparedWindow<R> }) | FailedPart;

/** Zero counts, to add outcomes to. */
export function zeroCounts(): RunCounts {
  return { fetched: 0, inserted: 0, updated: 0, unchanged: 0, rejected: 0, apiCalls: 0, events: 0 };
}

/**
 * Whether a stream's next part may be prepared while its previous part commits: not when preparing
 * makes upstream calls (details), reads what a commit changes beyond the rows' own keys (a
 * snapshot's vanished rows), or depends on the detail queue a commit updates.
 */
export function preparesBeside(stream: StreamDefinition<unknown, unknown>): boolean {
  return !stream.details && !stream.detailQueue && !stream.entity.snapshot;
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
 * Fetches the parts of `windows` one at a time, as the pipeline asks: per planned window its due
 * detail requests, then its answer, halved while too large. A failure ends the sequence with it.
 */
async function* fetchParts<R, C>(
  args: RunStreamArgs<R, C>,
  run: PipelineRun,
  windows: readonly Window[],
): AsyncGenerator<Part<R>> {
  const { pool, stream, scope, config, logger } = args;
  for (const [index, planned] of windows.entries()) {
    let window = planned;
    let startedAt = new Date();
    try {
      if (run.lease?.lost()) throw new LeaseLostError(stream.name, scope);
      const due: DueRequests = stream.detailQueue
        ? await dueDetailRequests(pool, stream.name, scope.id, run.now, stream.detailQueue.limit)
        : { requests: [], readAt: new Date(0).toISOString() };
      const splits: string[] = [];
      const leaves = fetchLeaves({
        stream,
        fetch: {
          client: args.client,
          scope,
          timezone: config.timezone,
          now: run.now,
          db: pool,
          due: due.requests,
          onProgress: args.onFetchProgress,
        },
        window: planned,
        minSize: config.streams[stream.name].minWindowSize,
        beforeFetch: (asked) => {
          window = asked;
          run.checkDeadline?.();
        },
        onSplit: (split) => {
          const label = describeWindow(split, config.timezone);
          splits.push(label);
          logger
            .child({ stream: stream.name, scope: scope.id })
            .info({ split: label }, 'window too large, splitting');
        },
      });
      for (;;) {
        startedAt = new Date();
        const next = await leaves.next();
        if (next.done) break;
        const leaf = next.value;
        window = leaf.window;
        const size = windowSizeOf(leaf.window, config.timezone);
        if (size !== undefined)
          run.read.push({
            size,
            rows: leaf.result.records.length + leaf.result.rejected.length,
            depth: leaf.depth,
          });
        const details: Record<string, unknown> = splits.length > 0 ? { splitFrom: splits.splice(0) } : {};
        const last = leaf.last && index === windows.length - 1;
        yield { window: leaf.window, result: leaf.result, due, startedAt, details, last };
      }
    } catch (error) {
      yield { failed: true, window, startedAt, error };
      return;
    }
  }
}

/** Prepares a fetched part (see prepareWindow.ts); a failure becomes a failed part. */
async function prepare<R, C>(
  args: RunStreamArgs<R, C>,
  run: PipelineRun,
  part: Part<R>,
  beside?: { committed: Promise<unknown>; keys: ReadonlySet<string> },
): Promise<PreparedPart<R>> {
  if ('failed' in part) return part;
  const { stream, scope, config, logger } = args;
  const ctx: RowContext = {
    scope,
    timezone: config.timezone,
    ambiguousTime: config.ambiguousTime,
    now: run.now,
  };
  try {
    const prepared = await prepareWindow({
      db: args.pool,
      client: args.client,
      stream,
      scope,
      window: part.window,
      ctx,
      fetched: part.result,
      due: part.due,
      logger: logger.child({
        stream: stream.name,
        scope: scope.id,
        window: describeWindow(part.window, config.timezone),
      }),
      ...(beside ? { after: beside } : {}),
    });
    return { ...part, prepared };
  } catch (error) {
    return { failed: true, window: part.window, startedAt: part.startedAt, error };
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
  counts.fetched = fetched.records.length + fetched.rejected.length;
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
    lease: run.lease,
    now: run.now,
    eventSink: args.eventSink,
    eventPolicy: run.policy,
    cursor: run.move(window, part.last),
    detailRetry: { ...DEFAULT_DETAIL_RETRY, maxAttempts: config.details.maxAttempts },
    run: { ...runRecord(args, run, window, part.startedAt), details, ...counts },
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
