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

/** Succeeded runs that started after `since` (the worker syncing again). */
export function succeededRunsSince(world: ChaosWorld, since: number): Promise<number> {
  return world.count(`SELECT count(*) FROM sync.runs WHERE status = 'succeeded' AND started_at > $1`, [
    new Date(since),
  ]);
}

/** How many scheduled stream x scope pairs have a succeeded run that started after `since`. */
export function scheduledPairsSucceededSince(world: ChaosWorld, since: number): Promise<number> {
  return world.count(
    `SELECT count(DISTINCT (stream, scope)) FROM sync.runs
      WHERE status = 'succeeded' AND stream <> 'orders' AND started_at > $1`,
    [new Date(since)],
  );
}

/** Worker output lines that are a stack-trace frame ("    at ..."): an error printed raw, not logged. */
export function stackTraceLines(lines: readonly string[]): number {
  return lines.filter((l) => l.includes('    at ')).length;
}

/** pino warning and error lines (levels 40 and 50) among `lines`. */
export function warningLines(lines: readonly string[]): number {
  return lines.filter((l) => /^\{"level":[45]0,/.test(l)).length;
}
