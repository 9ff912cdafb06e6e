import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';
import { freshDatabaseUrl } from '../helpers/db.ts';

const target = freshDatabaseUrl();
afterAll(() => target.drop());

describe('fulfillment-sync demo', () => {
  it('says how many events it stored, that they were not delivered, and the exact commands that deliver them', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      ['node', 'fulfillment-sync', 'demo'],
      createCliContext({
        env: { DATABASE_URL: target.url, LOG_LEVEL: 'silent' },
        print: (l) => out.push(l),
        printError: (l) => err.push(l),
      }),
    );
    process.exitCode = undefined;
    expect(err).toEqual([]);
    expect(code).toBe(0);

    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number; suppressed: number }>(
        'SELECT count(*)::int AS n, count(*) FILTER (WHERE suppressed)::int AS suppressed FROM sync.events',
      );
      const stored = rows[0]!;
      expect(stored.n).toBeGreaterThan(0);
      // A first load: every event held back.
      expect(stored.suppressed).toBe(stored.n);
      expect(out).toContain(`events: ${stored.n} stored in sync.events.`);
      expect(
        out.some((l) => l.includes(`${stored.n} of them are from this first load: stored but not delivered`)),
      ).toBe(true);
      expect(out).toContain('  fulfillment-sync webhooks add https://your.endpoint/path');
      expect(out).toContain('  fulfillment-sync worker');
      // The printed replay range selects exactly the stored events (replay's --to is exclusive).
      const replay = out.find((l) => l.startsWith('  fulfillment-sync webhooks replay'))!;
      const [, from, to] = /--from (\S+) --to (\S+)$/.exec(replay)!;
      const selected = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM sync.events WHERE occurred_at >= $1 AND occurred_at < $2',
        [from, to],
      );
      expect(selected.rows[0]!.n).toBe(stored.n);

      // The daily inventory series reaches back over the sandbox's 14 days of history (reconstructed
      // from inventory activity), every day of it, and the fresh install reports no stock-out: all it
      // saw at zero was at zero when it first saw it.
      const series = await client.query<{ first: string; days: number; span: number; last_history: string }>(
        `SELECT min(day)::text AS first, count(DISTINCT day)::int AS days,
                (max(day) - min(day) + 1)::int AS span,
                ((now() - interval '13 days') AT TIME ZONE 'America/Los_Angeles')::date::text AS last_history
           FROM analytics.daily_inventory`,
      );
      const { first, days, span, last_history } = series.rows[0]!;
      expect(first <= last_history).toBe(true);
      expect(days).toBe(span);
      const reconstructed = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM analytics.daily_inventory WHERE is_reconstructed',
      );
      expect(reconstructed.rows[0]!.n).toBeGreaterThan(0);
      const stockOuts = await client.query<{ spells: number; counted: number; zero: number }>(
        `SELECT (SELECT count(*) FROM analytics.stock_out_spells)::int AS spells,
                (SELECT coalesce(sum(stock_outs_30d), 0) FROM fulfillment.inventory_current)::int AS counted,
                (SELECT count(*) FROM fulfillment.inventory WHERE qty_available_to_sell <= 0)::int AS zero`,
      );
      expect(stockOuts.rows[0]).toEqual({ spells: 0, counted: 0, zero: expect.any(Number) });
      expect(stockOuts.rows[0]!.zero).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });

  it('spends at most 1,000 upstream calls on the first load (order details included), and a second sync at most 15 per supplier+account pair', async () => {
    const callsLine = (lines: string[]) => {
      const line = lines.find((l) => l.startsWith('upstream calls'));
      const [, total, details, perPair] =
        /^upstream calls +(\d+) in total: (\d+) order details, \d+ others \(([\d.]+) per supplier\+account pair\)$/.exec(
          line ?? '',
        ) ?? [];
      return { total: Number(total), details: Number(details), perPair: Number(perPair) };
    };
    const fresh = freshDatabaseUrl();
    try {
      const env = { DATABASE_URL: fresh.url, LOG_LEVEL: 'silent' };
      const first: string[] = [];
      const context = (out: string[]) =>
        createCliContext({ env, print: (l) => out.push(l), printError: () => {} });
      expect(await runCli(['node', 'fulfillment-sync', 'demo'], context(first))).toBe(0);
      const load = callsLine(first);
      expect(load.details).toBeGreaterThan(500);
      expect(load.total).toBeLessThanOrEqual(1000);
      const second: string[] = [];
      expect(await runCli(['node', 'fulfillment-sync', 'sync', '--once'], context(second))).toBe(0);
      process.exitCode = undefined;
      expect(callsLine(second).perPair).toBeLessThanOrEqual(15);
    } finally {
      await fresh.drop();
    }
  });
});
