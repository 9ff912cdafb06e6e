import { UpstreamError, UpstreamTimeoutError } from '../api/errors.ts';
import { describeWindow, splitWindow } from './plan.ts';
import type { FetchArgs, FetchResult, StreamDefinition, Window } from './types.ts';

/** A window's answer was too large (row cap reached or the call timed out): split it. */
export class WindowTooLargeError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WindowTooLargeError';
  }
}

/** Splitting reached the minimum slice and the answer is still too large: widen the cap or the timeout. */
export class WindowUnsplittableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WindowUnsplittableError';
  }
}

/** Too large: our own verdict, a timeout, an HTTP 413, or the service saying so in its message. */
function isTooLarge(error: unknown): boolean {
  if (error instanceof WindowTooLargeError || error instanceof UpstreamTimeoutError) return true;
  if (!(error instanceof UpstreamError)) return false;
  return (
    error.status === 413 || /too large|too many|narrow the (date )?range/i.test(error.upstreamMessage ?? '')
  );
}

/**
 * Fetches one window, halving it while the answer is too large (`maxRows` records or more, a
 * `WindowTooLargeError` or a timeout), down to `minSize`; then fails loudly naming the window.
 * The halves' records are concatenated: the caller writes them as one window.
 */
export async function fetchWithSplit<R, C>(args: {
  stream: StreamDefinition<R, C>;
  fetch: Omit<FetchArgs<C>, 'window'>;
  window: Window;
  maxRows: number;
  minSize: number;
  onSplit?: (window: Window) => void;
}): Promise<FetchResult<R> & { splits: number }> {
  const { stream, window, maxRows, minSize } = args;
  const { scope, timezone } = args.fetch;
  let result: FetchResult<R> | undefined;
  let failure: unknown;
  try {
    result = await stream.fetchWindow({ ...args.fetch, window });
    // An upstream may cut an answer at the cap without saying so: exactly `maxRows` rows could be
    // a truncated answer, so only fewer than the cap proves the window complete.
    const rows = result.records.length + result.rejected.length;
    if (rows >= maxRows && result.apiCalls <= 1) {
      failure = new WindowTooLargeError(
        `answer has ${rows} rows, at or over the cap of ${maxRows} (possibly truncated)`,
      );
    }
  } catch (error) {
    if (!isTooLarge(error)) throw error;
    failure = error;
  }
  if (!failure && result) return { ...result, splits: 0 };
  const halves = splitWindow(window, minSize, timezone);
  const label = `${stream.name} ${scope.id} ${describeWindow(window, timezone)}`;
  if (!halves) {
    throw new WindowUnsplittableError(
      `Window ${label} is too large and cannot be split below ${minSize}: raise api.maxRowsPerWindow or the timeout (${(failure as Error).message}).`,
      { cause: failure },
    );
  }
  args.onSplit?.(window);
  const apiCalls = result?.apiCalls ?? 1;
  const parts = [];
  for (const half of halves) parts.push(await fetchWithSplit({ ...args, window: half }));
  return {
    records: parts.flatMap((p) => p.records),
    rejected: parts.flatMap((p) => p.rejected),
    repaired: parts.flatMap((p) => p.repaired ?? []),
    detailFailures: parts.flatMap((p) => p.detailFailures ?? []),
    warnings: parts.flatMap((p) => p.warnings ?? []),
    apiCalls: apiCalls + parts.reduce((n, p) => n + p.apiCalls, 0),
    splits: 1 + parts.reduce((n, p) => n + p.splits, 0),
  };
}
