import { AnswerTooLargeError, UpstreamTimeoutError } from '../api/errors.ts';
import { describeWindow, splitWindow } from './plan.ts';
import { splitSignature } from './splitMemory.ts';
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
  /** Signatures (splitMemory.ts) of the divided windows this one is a part of, outermost first. */
  above: readonly string[];
}

/** Why a window was divided: its answer was too large, or a split remembered from earlier runs. */
export type SplitReason = 'too-large' | 'remembered';

interface Pending {
  window: Window;
  depth: number;
  above: readonly string[];
}

/**
 * Fetches a window, halving it while its answer is too large (a call at the row cap, a 413, a
 * timeout) down to `minSize`, then failing loudly naming the window. A window `remembered` as too
 * large by earlier runs (splitMemory.ts) is divided by the stream's filters at once, without the
 * call that would come back too large. Yields each window whose answer fit, in time order, and
 * fetches the next only when the caller asks for it: the caller writes each before the next is
 * read, so memory holds one call's answer, never a whole backfill. Calls that answered too large
 * count towards the next leaf's `apiCalls`.
 */
export async function* fetchLeaves<R, C>(args: {
  stream: StreamDefinition<R, C>;
  fetch: Omit<FetchArgs<C>, 'window'>;
  window: Window;
  minSize: number;
  onSplit?: (window: Window, reason: SplitReason) => void;
  /**
   * Called before each call with the window it asks for; may throw to stop (the run's deadline).
   * The caller learns which window a failure belongs to: the half being fetched, not the last leaf.
   */
  beforeFetch?: (window: Window) => void;
  /** Signatures of the windows to divide without asking them whole (splitMemory.ts). */
  remembered?: ReadonlySet<string>;
}): AsyncGenerator<FetchedLeaf<R>> {
  const { stream } = args;
  const pending: Pending[] = [{ window: args.window, depth: 0, above: [] }];
  const divide = (item: Pending, parts: Window[], reason: SplitReason) => {
    args.onSplit?.(item.window, reason);
    const signature = splitSignature(item.window);
    const above = signature === undefined ? item.above : [...item.above, signature];
    pending.unshift(...parts.map((part) => ({ window: part, depth: item.depth + 1, above })));
  };
  let wasted = 0;
  while (pending.length > 0) {
    const item = pending.shift() as Pending;
    const { window, depth, above } = item;
    const known = await rememberedParts(args, window);
    if (known) {
      divide(item, known, 'remembered');
      continue;
    }
    let result: FetchResult<R>;
    args.beforeFetch?.(window);
    try {
      result = await stream.fetchWindow({ ...args.fetch, window });
    } catch (error) {
      if (!isTooLarge(error)) throw error;
      divide(item, await partsOf(args, window, error), 'too-large');
      wasted += 1;
      continue;
    }
    yield {
      window,
      result: { ...result, apiCalls: result.apiCalls + wasted },
      depth,
      last: pending.length === 0,
      above,
    };
    wasted = 0;
  }
}

/** The parts of a window remembered as too large, by the stream's filters; undefined: ask it. */
async function rememberedParts<R, C>(
  args: {
    stream: StreamDefinition<R, C>;
    fetch: Omit<FetchArgs<C>, 'window'>;
    remembered?: ReadonlySet<string>;
  },
  window: Window,
): Promise<Window[] | undefined> {
  const signature = splitSignature(window);
  if (!args.stream.splitWindow || signature === undefined || !args.remembered?.has(signature))
    return undefined;
  const parts = await args.stream.splitWindow(window, { ...args.fetch, cutRows: [], remembered: true });
  return parts && parts.length > 0 ? (keepAdvanceLast(parts, window) ?? undefined) : undefined;
}

/**
 * The parts of a window whose answer was too large: time halves first; a window that cannot be
 * halved (a snapshot, a filter, one day) is divided by the stream's finer filters, if it has any.
 * Throws when it cannot be divided further.
 */
async function partsOf<R, C>(
  args: { stream: StreamDefinition<R, C>; fetch: Omit<FetchArgs<C>, 'window'>; minSize: number },
  window: Window,
  error: unknown,
): Promise<Window[]> {
  const { stream, minSize } = args;
  const { scope, timezone } = args.fetch;
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
  if (parts) return parts;
  const label = `${stream.name} ${scope.id} ${describeWindow(window, timezone)}`;
  const limit = byFilter
    ? 'at its finest filter (or no narrower filter is known yet)'
    : `and cannot be split below ${minSize}`;
  throw new WindowUnsplittableError(
    `Window ${label} is too large ${limit}: ${remedyOf(error)} (${(error as Error).message}).`,
    { cause: error },
  );
}
