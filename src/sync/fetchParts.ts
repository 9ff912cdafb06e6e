import { confirmShrink } from './confirmShrink.ts';
import type { CursorMove } from './cursor.ts';
import { fetchLeaves, type SplitReason } from './fetchSplit.ts';
import { LeaseLostError, type StreamLease } from './lease.ts';
import { describeWindow } from './plan.ts';
import type { RunStreamArgs } from './runArgs.ts';
import { type SplitTally, splitSignature } from './splitMemory.ts';
import type { EventPolicy, FetchResult, Window } from './types.ts';
import { type ReadWindow, windowSizeOf } from './windowSize.ts';

/**
 * The list calls of a run's windows, part by part (a planned window, or its parts when an answer
 * was too large), as the window pipeline asks for them (windowPipeline.ts).
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
  /**
   * Planned runs: the splits remembered from earlier runs (applied), and what this run saw of every
   * divided window (filled), for the next run's memory (splitMemory.ts).
   */
  split?: { remembered: ReadonlySet<string>; tally: Map<string, SplitTally> };
}

/** A part whose answer is in hand. */
export interface FetchedPart<R> {
  window: Window;
  result: FetchResult<R>;
  startedAt: Date;
  /** Run-log details known from the fetch (the windows split on the way). */
  details: Record<string, unknown>;
  /** The last part of the run's last planned window. */
  last: boolean;
}

/** A part that could not be fetched or prepared: nothing of it is written. */
export interface FailedPart {
  failed: true;
  window: Window;
  startedAt: Date;
  error: unknown;
}

export type Part<R> = FetchedPart<R> | FailedPart;
/**
 * Fetches the parts of `windows` one at a time, as the pipeline asks: per planned window its
 * answer, halved while too large. A failure ends the sequence with it.
 */
export async function* fetchParts<R, C>(
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
      const splits: string[] = [];
      const fetchArgs = { client: args.client, scope, timezone: config.timezone, now: run.now, db: pool };
      const leaves = fetchLeaves({
        stream,
        fetch: fetchArgs,
        window: planned,
        minSize: config.streams[stream.name].minWindowSize,
        beforeFetch: (asked) => {
          window = asked;
          run.checkDeadline?.();
        },
        remembered: run.split?.remembered,
        onSplit: (split, reason) => {
          const label = describeWindow(split, config.timezone);
          tallySplit(run, split, reason);
          if (reason === 'remembered') return;
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
        const result = await confirmShrink(
          {
            stream,
            fetch: fetchArgs,
            window,
            ctx: { scope, timezone: config.timezone, ambiguousTime: config.ambiguousTime, now: run.now },
            settings: config.vanishConfirm,
            logger,
            checkDeadline: run.checkDeadline,
          },
          leaf.result,
        );
        for (const node of leaf.above) {
          const seen = run.split?.tally.get(node);
          if (seen) seen.rows += result.records.length + result.rejected.length;
        }
        const size = windowSizeOf(leaf.window, config.timezone);
        if (size !== undefined)
          run.read.push({
            size,
            rows: result.records.length + result.rejected.length,
            depth: leaf.depth,
          });
        const details: Record<string, unknown> = splits.length > 0 ? { splitFrom: splits.splice(0) } : {};
        const last = leaf.last && index === windows.length - 1;
        yield { window: leaf.window, result, startedAt, details, last };
      }
    } catch (error) {
      yield { failed: true, window, startedAt, error };
      return;
    }
  }
}

/** Notes a divided window in the run's tally: too large itself, or divided from memory. */
function tallySplit(run: PipelineRun, window: Window, reason: SplitReason): void {
  const node = splitSignature(window);
  if (!run.split || node === undefined) return;
  const seen = run.split.tally.get(node) ?? { rows: 0, tooLarge: false };
  if (reason === 'too-large') seen.tooLarge = true;
  run.split.tally.set(node, seen);
}
