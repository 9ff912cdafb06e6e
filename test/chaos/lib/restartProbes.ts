import type { ChaosWorld } from './world.ts';

/** The status /readyz of a worker on `port` answers (0 when it does not answer at all). */
export async function readyzStatus(port: number): Promise<number> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}

/**
 * Stream x scope pairs that stored a window after `since`: a succeeded run row, or a cursor stamped
 * then (a poll that found nothing new writes no run row, only sync.cursors.last_polled_at).
 */
export const SUCCEEDED_SINCE = `SELECT stream, scope FROM sync.runs WHERE status = 'succeeded' AND started_at > $1
   UNION SELECT stream, scope FROM sync.cursors WHERE last_polled_at > $1`;

/** Pairs that stored a window after `since` (the worker syncing again). */
export function succeededRunsSince(world: ChaosWorld, since: number): Promise<number> {
  return world.count(`SELECT count(*) FROM (${SUCCEEDED_SINCE}) s`, [new Date(since)]);
}

/** How many scheduled stream x scope pairs stored a window after `since`. */
export function scheduledPairsSucceededSince(world: ChaosWorld, since: number): Promise<number> {
  return world.count(`SELECT count(*) FROM (${SUCCEEDED_SINCE}) s WHERE stream <> 'orders'`, [
    new Date(since),
  ]);
}

/** Worker output lines that are a stack-trace frame ("    at ..."): an error printed raw, not logged. */
export function stackTraceLines(lines: readonly string[]): number {
  return lines.filter((l) => l.includes('    at ')).length;
}

/** pino warning and error lines (levels 40 and 50) among `lines`. */
export function warningLines(lines: readonly string[]): number {
  return lines.filter((l) => /^\{"level":[45]0,/.test(l)).length;
}
