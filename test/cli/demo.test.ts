import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/cli/actions/sync.ts';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';
import { linesOf, runSourceCli } from '../helpers/cli.ts';
import { freshDatabaseUrl } from '../helpers/db.ts';

const target = freshDatabaseUrl();
afterAll(() => target.drop());

describe('fulfillment-sync demo', () => {
  it('says how many events it stored, that they were not delivered, and the exact commands that deliver them; its logs go to stderr as text', async () => {
    // As `npm run demo > demo.txt` runs it: stdout and stderr are pipes, not a terminal.
    const result = await runSourceCli(['demo'], {
      env: { PATH: process.env.PATH, DATABASE_URL: target.url, LOG_LEVEL: 'info' },
    });
    expect(result.code, result.stderr).toBe(0);
    const out = linesOf(result.stdout);
    // stdout: the demo's own lines only, no log line among them.
    expect(out[0]).toBe('1/3 migrate');
    expect(result.stdout).not.toMatch(/SANDBOX MODE|sandbox simulator listening|"level"/);
    // stderr: the log, as readable lines (not JSON) although it is no terminal either.
    const err = linesOf(result.stderr);
    expect(err.some((l) => /WARN.*SANDBOX MODE: FULFILLMENT_API_URL is not set/.test(l))).toBe(true);
    expect(err.some((l) => /INFO.*sandbox simulator listening/.test(l))).toBe(true);
    expect(err.filter((l) => l.startsWith('{'))).toEqual([]);
    // No colour codes where nothing renders them.
    expect(result.stderr).not.toContain('\u001b[');

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
      expect(out).toContain('  npx fulfillment-sync webhooks add https://your.endpoint/path');
      expect(out).toContain('  npx fulfillment-sync worker');
      // Every printed command runs as printed after `npm ci` (test/package/ runs `npx fulfillment-sync`).
      expect(out.find((l) => l.startsWith('next: '))).toMatch(
        /^next: `npx fulfillment-sync worker` .*`npx fulfillment-sync status`/,
      );
      // The printed replay range selects exactly the stored events (replay's --to is exclusive).
      const replay = out.find((l) => l.startsWith('  npx fulfillment-sync webhooks replay'))!;
      const [, from, to] = /--from (\S+) --to (\S+)$/.exec(replay)!;
      const selected = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM sync.events WHERE occurred_at >= $1 AND occurred_at < $2',
        [from, to],
      );
      expect(selected.rows[0]!.n).toBe(stored.n);

      // The daily inventory series reaches back over the sandbox's 14 days of history (reconstructed
      // from inventory activity), every day of it, and every row the fresh install saw at zero is a
      // stock-out, one it was already in when it first saw it (none ran out in front of it).
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
      const stockOuts = await client.query<{
        spells: number;
        first_seen: number;
        counted: number;
        zero: number;
      }>(
        `SELECT (SELECT count(*) FROM analytics.stock_out_spells WHERE is_ongoing)::int AS spells,
                (SELECT count(*) FROM analytics.stock_out_spells WHERE out_when_first_seen)::int AS first_seen,
                (SELECT coalesce(sum(stock_outs_30d), 0) FROM fulfillment.inventory_current)::int AS counted,
                (SELECT count(*) FROM fulfillment.inventory WHERE qty_available_to_sell <= 0)::int AS zero`,
      );
      const { zero } = stockOuts.rows[0]!;
      expect(zero).toBeGreaterThan(0);
      expect(stockOuts.rows[0]).toEqual({ spells: zero, first_seen: zero, counted: 0, zero });
    } finally {
      await client.end();
    }
  });

  it('spends at most 1,050 upstream calls on the first load (order details included), and a second sync at most 15 per supplier+account pair; --json says so as one object', async () => {
    const fresh = freshDatabaseUrl();
    try {
      const env = { DATABASE_URL: fresh.url, LOG_LEVEL: 'silent' };
      const context = (out: string[]) =>
        createCliContext({ env, print: (l) => out.push(l), printError: () => {} });
      const first: string[] = [];
      expect(await runCli(['node', 'fulfillment-sync', 'demo', '--json'], context(first))).toBe(0);
      // One line, one object: the migration, the sync summary, the rows per table, the events.
      expect(first).toHaveLength(1);
      const demo = JSON.parse(first[0]!) as {
        migrate: string;
        sync: SyncSummary;
        tables: { table: string; rows: number }[];
        events: { total: number; suppressed: number; byType: { type: string; count: number }[] };
        deliver: string[];
      };
      expect(demo.migrate).toMatch(/^created database ".+"; applied \d+ of \d+ migrations/);
      expect(demo.sync.streams.map((s) => s.stream)).toContain('orders');
      expect(demo.sync.streams.every((s) => s.status === 'ok')).toBe(true);
      expect(demo.tables).toContainEqual({ table: 'fulfillment.orders', rows: expect.any(Number) });
      expect(demo.tables.find((t) => t.table === 'fulfillment.orders')!.rows).toBeGreaterThan(500);
      expect(demo.events.byType.reduce((n, t) => n + t.count, 0)).toBe(demo.events.total);
      expect(demo.events.suppressed).toBe(demo.events.total);
      expect(demo.deliver[0]).toBe('npx fulfillment-sync webhooks add https://your.endpoint/path');
      const load = demo.sync.upstreamCalls;
      expect(load.orderDetails).toBeGreaterThan(500);
      // 1,050: inventory activity reads the sandbox's whole 14-day history on a first load (one call
      // per day and supplier, 30 in all; a week, 16, before analytics.daily_inventory reached back).
      expect(load.total).toBeLessThanOrEqual(1050);
      const second: string[] = [];
      expect(await runCli(['node', 'fulfillment-sync', 'sync', '--once', '--json'], context(second))).toBe(0);
      process.exitCode = undefined;
      expect(second).toHaveLength(1);
      const again = JSON.parse(second[0]!) as SyncSummary;
      expect(again.upstreamCalls.perSupplierAccountPair).toBeLessThanOrEqual(15);
      expect(again.upstreamCalls.total).toBe(again.streams.reduce((n, s) => n + s.apiCalls, 0));
    } finally {
      await fresh.drop();
    }
  });
});
