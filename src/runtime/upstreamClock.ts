import { ConfigError } from '../config/configError.ts';

/**
 * Where a process reads "now" before each sync run: the end of its windows and its "today". A real
 * API has only the real clock, so that is the default. A simulator keeps a clock of its own (a
 * manual one moves only on `POST /_sim/clock`): a sync against it must read that clock, or its
 * windows end at the real now, days away from the simulated world, and miss what the simulated hours
 * brought.
 */
export type UpstreamClock = () => Promise<Date>;

/** This machine's clock. */
export const systemClock: UpstreamClock = async () => new Date();

/** How long one read of the simulator's clock may take. */
const CLOCK_READ_TIMEOUT_MS = 5_000;

/** The one line that says why the simulator's clock could not be read, and what to do. */
function unreadable(worldUrl: string, why: string): Error {
  return new ConfigError([
    `FULFILLMENT_CLOCK: "simulator" reads the simulator's clock at ${worldUrl}, which ${why}; it answers only loopback clients of a fulfillment-sync simulator (a real API has no such clock: unset FULFILLMENT_CLOCK)`,
  ]);
}

/**
 * The simulator's clock, read from `GET <baseUrl>/_sim/world` (its `now`) at every call. A failure
 * throws a ConfigError naming FULFILLMENT_CLOCK: the setting points at something that is no
 * simulator, or one this process may not control.
 */
export function simulatorClock(baseUrl: string, fetchImpl: typeof fetch = fetch): UpstreamClock {
  const worldUrl = `${baseUrl.replace(/\/+$/, '')}/_sim/world`;
  return async () => {
    let response: Response;
    try {
      response = await fetchImpl(worldUrl, { signal: AbortSignal.timeout(CLOCK_READ_TIMEOUT_MS) });
    } catch (error) {
      throw unreadable(worldUrl, `did not answer (${(error as Error).message})`);
    }
    const body = (await response.json().catch(() => undefined)) as { now?: unknown } | undefined;
    const now = typeof body?.now === 'string' ? new Date(body.now) : undefined;
    if (!response.ok || now === undefined || Number.isNaN(now.getTime())) {
      throw unreadable(worldUrl, `answered HTTP ${response.status} without a "now"`);
    }
    return now;
  };
}
