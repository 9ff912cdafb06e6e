/**
 * The busiest 1-s sliding window of a list of request arrivals (epoch ms, ascending): the most
 * arrivals in any half-open interval [t, t + windowMs). Sliding, not calendar seconds: a burst
 * across a second boundary counts whole.
 */
export function busiestWindow(arrivals: readonly number[], windowMs = 1000): number {
  let best = 0;
  let first = 0;
  for (let last = 0; last < arrivals.length; last += 1) {
    while ((arrivals[last] ?? 0) - (arrivals[first] ?? 0) >= windowMs) first += 1;
    best = Math.max(best, last - first + 1);
  }
  return best;
}

/** Arrivals per second from the first to the last one (0 with fewer than two). */
export function meanRate(arrivals: readonly number[]): number {
  if (arrivals.length < 2) return 0;
  const spanMs = (arrivals.at(-1) ?? 0) - (arrivals[0] ?? 0);
  return spanMs > 0 ? ((arrivals.length - 1) * 1000) / spanMs : 0;
}
