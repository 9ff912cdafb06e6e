import { AnswerTooLargeError, UpstreamTimeoutError } from '../api/errors.ts';
import { describeWindow, splitWindow } from './plan.ts';
import type { FetchArgs, FetchResult, StreamDefinition, Window } from './types.ts';

/** Splitting reached the minimum slice and the answer is still too large: widen the cap or the timeout. */
export class WindowUnsplittableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WindowUnsplittableError';
  }
}

/**
 * Too large: the client's verdict (a 413, a "narrow the range" message, its row cap) or a timeout.
 * Classified once in src/api, so throttling ("Too many requests") never splits.
 */
function isTooLarge(error: unknown): boolean {
  return error instanceof AnswerTooLargeError || error instanceof UpstreamTimeoutError;
}

/** The setting to raise for a window that stays too large at its smallest. */
function remedyOf(error: unknown): string {
  // An answer that says so is the upstream's own query timing out: no setting of ours lengthens it.
  if (error instanceof UpstreamTimeoutError && error.status !== undefined)
    return "the upstream's own query times out even for the smallest window: ask its operator, or lower minWindowSize in FULFILLMENT_STREAMS";
  if (error instanceof UpstreamTimeoutError) return 'raise FULFILLMENT_TIMEOUT_MS';
  if (error instanceof AnswerTooLargeError && /FULFILLMENT_MAX_RESPONSE_BYTES/.test(error.message))
    return 'raise FULFILLMENT_MAX_RESPONSE_BYTES';
  return 'raise FULFILLMENT_MAX_ROWS_PER_WINDOW';
}

/** The rows of an answer cut at the row cap, which name parts a split can ask for. */
function cutRowsOf(error: unknown): readonly unknown[] {
  return error instanceof AnswerTooLargeError ? error.cutRows : [];
}

/**
 * Filter parts of a window that moves the cursor: only the last one moves it, once every part
 * before it is stored (the parts are stored in order, and a failure stops the run).
 */
function keepAdvanceLast(parts: Window[] | null, window: Window): Window[] | null {
  if (!parts || window.advanceTo === undefined) return parts;
  return parts.map((part, i) => {
    if (i === parts.length - 1) return { ...part, advanceTo: window.advanceTo };
    const { advanceTo: _later, ...rest } = part;
    return rest;
  });
}

/** One window whose answer fit in its calls, with that answer. */
export interface FetchedLeaf<R> {
  window: Window;
  result: FetchResult<R>;
  /** How many halvings led to this window (0: the planned window itself). */
  depth: number;
  /** The planned window's last part: nothing of it remains to fetch. */
  last: boolean;
}

/**
 * Fetches a window, halving it while its answer is too large (a call at the row cap, a 413, a
 * timeout) down to `minSize`, then failing loudly naming the window. Yields each window whose answer
 * fit, in time order, and fetches the next only when the caller asks for it: the caller writes each
 * before the next is read, so memory holds one call's answer, never a whole backfill. Calls that
 * answered too large count towards the next leaf's `apiCalls`.
 */
export async function* fetchLeaves<R, C>(args: {
  stream: StreamDefinition<R, C>;
  fetch: Omit<FetchArgs<C>, 'window'>;
  window: Window;
  minSize: number;
  onSplit?: (window: Window) => void;
  /**
   * Called before each call with the window it asks for; may throw to stop (the run's deadline).
   * The caller learns which window a failure belongs to: the half being fetched, not the last leaf.
   */
  beforeFetch?: (window: Window) => void;
}): AsyncGenerator<FetchedLeaf<R>> {
  const { stream, minSize } = args;
  const { scope, timezone } = args.fetch;
  const pending: Array<{ window: Window; depth: number }> = [{ window: args.window, depth: 0 }];
  let wasted = 0;
  while (pending.length > 0) {
    const { window, depth } = pending.shift() as { window: Window; depth: number };
    let result: FetchResult<R>;
    args.beforeFetch?.(window);
    try {
      result = await stream.fetchWindow({ ...args.fetch, window });
    } catch (error) {
      if (!isTooLarge(error)) throw error;
      // Time halves first; a window that cannot be halved (a snapshot, a filter, one day) is
      // divided by the stream's finer filters, if it has any.
      const byTime =
        window.kind === 'minute' || window.kind === 'day' ? splitWindow(window, minSize, timezone) : null;
      const byFilter = !byTime && stream.splitWindow !== undefined;
      const parts =
        byTime ??
        (stream.splitWindow
          ? keepAdvanceLast(
              await stream.splitWindow(window, { ...args.fetch, cutRows: cutRowsOf(error) }),
              window,
            )
          : null);
      if (!parts) {
        const label = `${stream.name} ${scope.id} ${describeWindow(window, timezone)}`;
        const limit = byFilter
          ? 'at its finest filter (or no narrower filter is known yet)'
          : `and cannot be split below ${minSize}`;
        throw new WindowUnsplittableError(
          `Window ${label} is too large ${limit}: ${remedyOf(error)} (${(error as Error).message}).`,
          { cause: error },
        );
      }
      args.onSplit?.(window);
      wasted += 1;
      pending.unshift(...parts.map((part) => ({ window: part, depth: depth + 1 })));
      continue;
    }
    yield {
      window,
      result: { ...result, apiCalls: result.apiCalls + wasted },
      depth,
      last: pending.length === 0,
    };
    wasted = 0;
  }
}
