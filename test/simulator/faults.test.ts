import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shipmentUpdateSchema } from '../../src/api/records/index.ts';
import {
  CORRUPTIONS,
  FAULT_KINDS,
  type FaultKind,
  type RunningSimulator,
} from '../../src/simulator/index.ts';
import { AUTH, sim } from './helpers.ts';

let s: RunningSimulator;
beforeAll(async () => {
  s = await sim({ volume: { historyDays: 3 } });
});
afterAll(() => s.close());

const LIST = '/api/v1/Shipments/Updates?accountNumber=ACC100&beginDate=2026-10-31&endDate=2026-11-03';
const CHEAP = '/api/v1/Orders/PackingSlips/Bulk';

/** What one call looked like from the outside. */
async function observe(path: string, timeoutMs = 2000): Promise<string> {
  const post = path === CHEAP;
  try {
    const res = await fetch(`${s.url}${path}`, {
      method: post ? 'POST' : 'GET',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: post ? JSON.stringify({ packingSlipIDs: [1001] }) : undefined,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let body: { isSuccess?: boolean; payload?: unknown };
    try {
      body = JSON.parse(text);
    } catch {
      return `${res.status}:not-json`;
    }
    if (res.status === 429)
      return `429:retry-after=${res.headers.get('retry-after')}:${(body as { message?: string }).message}`;
    if (res.status !== 200) return `${res.status}`;
    if (body.isSuccess === false) return '200:isSuccess-false';
    return '200:ok';
  } catch (error) {
    return (error as Error).name === 'TimeoutError' ? 'timeout' : 'network-error';
  }
}

describe('faults', () => {
  it('produces every fault kind on demand', async () => {
    const seen: Partial<Record<FaultKind, string>> = {};
    for (const kind of FAULT_KINDS) {
      s.setFaults({ rates: { [kind]: 1 }, slowMs: 300, retryAfterSeconds: 7 });
      const started = Date.now();
      seen[kind] = await observe(LIST, 1000);
      if (kind === 'slow') expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    }
    s.setFaults({});
    expect(seen).toEqual({
      http5xx: expect.stringMatching(/^50[023]$/),
      rateLimit: '429:retry-after=7:Too many requests',
      slow: '200:ok',
      timeout: 'timeout',
      drop: 'network-error',
      malformedJson: '200:not-json',
      truncated: '200:not-json',
      isSuccessFalse: '200:isSuccess-false',
      badRecords: '200:ok',
    });
  });

  it('breaks records in every documented way', async () => {
    for (const corruption of CORRUPTIONS) {
      s.setFaults({ rates: { badRecords: 1 }, corruptions: [corruption] });
      const res = await fetch(`${s.url}${LIST}`, { headers: AUTH });
      const rows = ((await res.json()) as { payload: unknown[] }).payload;
      const text = JSON.stringify(rows);
      const invalid = rows.filter((r) => !shipmentUpdateSchema.safeParse(r).success).length;
      if (corruption === 'wrongType' || corruption === 'missingField') expect(invalid, corruption).toBe(1);
      if (corruption === 'overlongString') expect(text).toContain('X'.repeat(5000));
      if (corruption === 'unknownEnum') expect(text).toContain('TELEPORTED');
      if (corruption === 'dateWithoutOffset')
        expect(text).toMatch(/"eventTime":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d"/);
      if (corruption === 'dateUtc') expect(text).toMatch(/"eventTime":"[^"]+Z"/);
    }
    s.setFaults({});
  });

  it('injects faults at the configured rate and replays them from the seed', async () => {
    s.setFaults({ seed: 5, rates: { http5xx: 0.2 } });
    const first: string[] = [];
    for (let i = 0; i < 200; i++) first.push(await observe(CHEAP));
    // The rate over 1,000 calls; these go ten at a time, since only the count matters here.
    const outcomes = [...first];
    for (let i = 0; i < 80; i++)
      outcomes.push(...(await Promise.all(Array.from({ length: 10 }, () => observe(CHEAP)))));
    const failures = outcomes.filter((o) => o !== '200:ok').length / outcomes.length;
    expect(outcomes).toHaveLength(1000);
    expect(failures).toBeGreaterThan(0.15);
    expect(failures).toBeLessThan(0.25);
    s.setFaults({ seed: 5, rates: { http5xx: 0.2 } });
    const replay: string[] = [];
    for (let i = 0; i < 200; i++) replay.push(await observe(CHEAP));
    expect(replay).toEqual(first);
    s.setFaults({});
  });

  it('limits faults to the named operations and spreads a total rate over kinds', async () => {
    s.setFaults({ seed: 1, operations: { 'GET Shipments/Updates': { isSuccessFalse: 1 } } });
    expect(await observe(LIST)).toBe('200:isSuccess-false');
    expect(await observe(CHEAP)).toBe('200:ok');
    const res = await fetch(`${s.url}/_sim/faults`, {
      method: 'POST',
      body: JSON.stringify({ seed: 2, rate: 0.5, kinds: ['http5xx', 'isSuccessFalse'] }),
    });
    expect(res.status).toBe(200);
    const seen = new Set<string>();
    for (let i = 0; i < 60; i++) seen.add((await observe(CHEAP)).replace(/^50[023]$/, '5xx'));
    expect(seen).toEqual(new Set(['200:ok', '5xx', '200:isSuccess-false']));
    const bad = await fetch(`${s.url}/_sim/faults`, {
      method: 'POST',
      body: JSON.stringify({ rates: { nonsense: 1 } }),
    });
    expect(bad.status).toBe(400);
    s.setFaults({});
  });

  it('caps answers per window so the client splits the window', async () => {
    const capped = await sim({ volume: { historyDays: 3 }, rowCap: 5 });
    try {
      const wide = await fetch(`${capped.url}${LIST}`, { headers: AUTH });
      expect(wide.status).toBe(413);
      const body = await wide.json();
      expect(body).toEqual({
        isSuccess: false,
        message: 'Request too large: narrow the date range',
        payload: null,
      });
      const narrow = await fetch(
        `${capped.url}/api/v1/Shipments/Updates?accountNumber=ACC100&beginDate=2026-11-02T10:00&endDate=2026-11-02T10:30`,
        { headers: AUTH },
      );
      expect(narrow.status).toBe(200);
    } finally {
      await capped.close();
    }
  });
});
