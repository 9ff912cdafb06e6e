import { type RunningSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator/index.ts';

/** A start inside the week of the November 2026 DST change, so history crosses it. */
export const START = new Date('2026-11-03T20:00:00Z');
export const AUTH = { authorization: 'Bearer sandbox-token' };

/** Starts a manual-clock simulator with fixed seed and start unless told otherwise. */
export function sim(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return startSimulator({ seed: 42, clock: 'manual', start: START, ...options });
}

export interface Enveloped<T = unknown> {
  status: number;
  text: string;
  body: { isSuccess: boolean; message: string | null; payload: T };
}

/** Calls the API with the sandbox token; query values that are undefined are left out. */
export async function call<T = unknown>(
  s: { url: string },
  method: string,
  path: string,
  query: Record<string, string | undefined> = {},
  body?: unknown,
): Promise<Enveloped<T>> {
  const url = new URL(`${s.url}/api/v1/${path}`);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method,
    headers: { ...AUTH, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, text, body: JSON.parse(text) };
}
