import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONCURRENCY,
  FAIR_ORDER,
  NEXT_PACED_AT,
  NOT_PAUSED,
  PACING_ALLOWANCE,
  PACING_RATE,
  PROBE_AFTER_MS,
  PROBED,
  pacedAfter,
} from '../../src/webhooks/delivery/claimPolicy.ts';
import { createTestDatabase } from './harness.ts';

/**
 * Each rule of the claim, evaluated by Postgres on its own over one endpoint row `e` (the claim's
 * parameters: $1 now, $2 default concurrency 10, $3 limit 100). claim.test.ts, claimProbe.test.ts,
 * fairShares.test.ts and limits.test.ts show the rules at work in whole claims.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const now = new Date('2031-03-01T00:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

interface EndpointRow {
  failingSince?: Date | null;
  maxConcurrency?: number | null;
  rate?: number | null;
  nextSendAt?: Date | null;
  pausedUntil?: Date | null;
}

/** `expression` over one endpoint as the claim would see it at `now`. */
async function evaluate<T>(expression: string, row: EndpointRow): Promise<T> {
  const { rows } = await database.pool.query<{ v: T }>(
    `SELECT ${expression} AS v
       FROM (SELECT $1::timestamptz, $2::int, $3::int) p,
            (VALUES ($4::timestamptz, $5::int, $6::int, $7::timestamptz, $8::timestamptz))
              AS e(failing_since, max_concurrency, rate_limit_per_second, next_send_at, paused_until)`,
    [
      now,
      10,
      100,
      row.failingSince ?? null,
      row.maxConcurrency ?? null,
      row.rate ?? null,
      row.nextSendAt ?? ago(3_600_000),
      row.pausedUntil ?? null,
    ],
  );
  return rows[0]?.v as T;
}

describe('the probe rule', () => {
  it('probes only an endpoint failing without a success for PROBE_AFTER_MS or longer', async () => {
    expect(await evaluate(PROBED, { failingSince: null })).toBe(false);
    expect(await evaluate(PROBED, { failingSince: ago(PROBE_AFTER_MS - 1000) })).toBe(false);
    expect(await evaluate(PROBED, { failingSince: ago(PROBE_AFTER_MS) })).toBe(true);
  });

  it('holds a probed endpoint to one in flight and one a second, whatever it was given', async () => {
    const probed = { failingSince: ago(PROBE_AFTER_MS), maxConcurrency: 50, rate: 200 };
    expect(await evaluate(CONCURRENCY, probed)).toBe(1);
    expect(await evaluate(PACING_RATE, probed)).toBe(1);
    expect(await evaluate(PACING_RATE, { failingSince: ago(PROBE_AFTER_MS) })).toBe(1);
  });
});

describe('the pause and concurrency rules', () => {
  it('starts nothing for an endpoint paused past now', async () => {
    expect(await evaluate(NOT_PAUSED, { pausedUntil: null })).toBe(true);
    expect(await evaluate(NOT_PAUSED, { pausedUntil: now })).toBe(true);
    expect(await evaluate(NOT_PAUSED, { pausedUntil: new Date(now.getTime() + 1) })).toBe(false);
  });

  it('takes the endpoint’s own concurrency, else the default', async () => {
    expect(await evaluate(CONCURRENCY, { maxConcurrency: 3 })).toBe(3);
    expect(await evaluate(CONCURRENCY, { maxConcurrency: null })).toBe(10);
  });
});

describe('the pacing rule', () => {
  it('holds an unpaced endpoint to the limit only', async () => {
    expect(await evaluate(PACING_RATE, { rate: null })).toBeNull();
    expect(await evaluate(PACING_ALLOWANCE, { rate: null })).toBe(100);
  });

  it('lets a quiet endpoint send one second’s burst, and a busy one what its pacing has earned', async () => {
    expect(await evaluate(PACING_ALLOWANCE, { rate: 5, nextSendAt: ago(3_600_000) })).toBe(5);
    expect(await evaluate(PACING_ALLOWANCE, { rate: 5, nextSendAt: ago(400) })).toBe(2);
    expect(await evaluate<number>(PACING_ALLOWANCE, { rate: 5, nextSendAt: now })).toBe(0);
    expect(await evaluate<number>(PACING_ALLOWANCE, { rate: 5, nextSendAt: ago(-1000) })).toBeLessThan(0);
  });

  it('moves the pacing 1/rate a started attempt, from the same start the allowance counts from', async () => {
    const quiet = { rate: 5, nextSendAt: ago(3_600_000) };
    expect(await evaluate(pacedAfter('3'), quiet)).toEqual(ago(400));
    expect(await evaluate(pacedAfter('5'), quiet)).toEqual(now);
    const busy = { rate: 5, nextSendAt: ago(200) };
    expect(await evaluate(pacedAfter('1'), busy)).toEqual(now);
  });

  it('names the next slot 1/rate after where the pacing stands', async () => {
    expect(await evaluate(NEXT_PACED_AT, { rate: 5, nextSendAt: now })).toEqual(
      new Date(now.getTime() + 200),
    );
    expect(await evaluate(NEXT_PACED_AT, { rate: null, nextSendAt: now })).toBeNull();
  });
});

describe('the fairness rule', () => {
  it('gives a free slot to the endpoint with the fewest in flight, then to the longest waiting', async () => {
    const { rows } = await database.pool.query<{ name: string }>(
      `SELECT d.name FROM (SELECT $1::timestamptz) p,
              (VALUES ('busy first in queue', 'a', 3, 1, $1::timestamptz - interval '1 hour'),
                      ('idle second in queue', 'b', 0, 2, $1::timestamptz - interval '2 hours'),
                      ('idle first in queue', 'b', 0, 1, $1::timestamptz - interval '1 minute'),
                      ('idle other, waited longer', 'c', 0, 1, $1::timestamptz - interval '5 minutes'))
                AS d(name, endpoint_id, busy, turn, next_attempt_at)
        ORDER BY ${FAIR_ORDER}`,
      [now],
    );
    expect(rows.map((r) => r.name)).toEqual([
      'idle other, waited longer',
      'idle first in queue',
      'idle second in queue',
      'busy first in queue',
    ]);
  });
});
