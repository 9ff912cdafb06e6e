/**
 * How long upstream asked us to wait, read from an error of the API client (duck-typed: the client
 * exposes `retryAfterMs`, possibly on a wrapped `cause`). Undefined when the error carries no hint.
 */
export function retryAfterMsOf(error: unknown, depth = 0): number | undefined {
  if (typeof error !== 'object' || error === null || depth > 3) return undefined;
  const record = error as { retryAfterMs?: unknown; retryAfterSeconds?: unknown; cause?: unknown };
  if (typeof record.retryAfterMs === 'number' && record.retryAfterMs > 0) return record.retryAfterMs;
  if (typeof record.retryAfterSeconds === 'number' && record.retryAfterSeconds > 0) {
    return record.retryAfterSeconds * 1000;
  }
  return retryAfterMsOf(record.cause, depth + 1);
}
