import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
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
