import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SyncSummary, syncOnceAction } from '../../src/cli/actions/sync.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/** `sync --once` in sandbox mode: the in-process simulator, no Redis, a summary line per stream. */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  return { out: { log: (l: string) => lines.push(l), error: (l: string) => errors.push(l) }, lines, errors };
}

describe('sync --once', () => {
  it('refuses an unknown stream with one line listing the valid ones (exit 2)', async () => {
    const c = capture();
    expect(
      await syncOnceAction({ once: true, stream: 'bogus' }, { env: { DATABASE_URL: t.url }, out: c.out }),
    ).toBe(2);
    expect(c.errors).toHaveLength(1);
    expect(c.errors[0]).toMatch(/^error: unknown stream "bogus"; valid streams: .*shipments/);
  });

  it('runs one stream against the sandbox simulator and prints its summary', async () => {
    const c = capture();
    const logger = pino({ level: 'silent' });
    const code = await syncOnceAction(
      { once: true, stream: 'invoices' },
      { env: { DATABASE_URL: t.url }, out: c.out, logger },
    );
    expect(c.errors).toEqual([]);
    expect(code).toBe(0);
    expect(c.lines).toHaveLength(3);
    expect(c.lines[0]).toMatch(/^invoices .* inserted [1-9]\d* .* ok$/);
    // The analytics refresh at the end of the run (issue 19) has a line of its own.
    expect(c.lines[2]).toMatch(
      /^analytics +refreshed \d+ tables in [\d.]+ s \(\d+ changes taken in(, \d+ rebuilt whole)?(, \d+ left to the worker refreshing them)?\)$/,
    );
    // What the run cost upstream, order details apart, per supplier and account pair.
    expect(c.lines[1]).toMatch(
      /^upstream calls +2 in total: 0 order details, 2 others \(1 per supplier\+account pair\)$/,
    );
    const stored = await t.pool.query('SELECT count(*)::int AS n FROM fulfillment.invoices');
    expect(stored.rows[0].n).toBeGreaterThan(0);
  });

  it('--json: one object with a summary per stream and the upstream calls', async () => {
    const c = capture();
    const code = await syncOnceAction(
      { once: true, stream: 'invoices', json: true },
      { env: { DATABASE_URL: t.url }, out: c.out, logger: pino({ level: 'silent' }) },
    );
    expect(c.errors).toEqual([]);
    expect(code).toBe(0);
    expect(c.lines).toHaveLength(1);
    const summary = JSON.parse(c.lines[0]!) as SyncSummary;
    expect(summary.streams).toEqual([
      expect.objectContaining({ stream: 'invoices', status: 'ok', apiCalls: 2, failures: [] }),
    ]);
    expect(summary.streams[0]!.scopes.length).toBeGreaterThan(0);
    expect(summary.upstreamCalls).toEqual({
      total: 2,
      orderDetails: 0,
      others: 2,
      perSupplierAccountPair: 1,
    });
  });

  it('with a real API and no scopes configured: one line naming the variables, exit 2, nothing read', async () => {
    const c = capture();
    const env = {
      DATABASE_URL: t.url,
      // Nothing listens there: the command must stop before any call.
      FULFILLMENT_API_URL: 'http://127.0.0.1:9',
      FULFILLMENT_API_TOKEN: 'some-token',
    };
    expect(await syncOnceAction({ once: true }, { env, out: c.out, logger: pino({ level: 'silent' }) })).toBe(
      2,
    );
    expect(c.lines).toEqual([]);
    expect(c.errors).toEqual([
      expect.stringMatching(
        /^error: nothing to sync: .*FULFILLMENT_SUPPLIER_IDS and\/or FULFILLMENT_ACCOUNT_NUMBERS/,
      ),
    ]);
    const account = capture();
    const code = await syncOnceAction(
      { once: true, stream: 'shipments' },
      { env, out: account.out, logger: pino({ level: 'silent' }) },
    );
    expect(code).toBe(2);
    expect(account.errors).toEqual([expect.stringMatching(/^error: .*set FULFILLMENT_ACCOUNT_NUMBERS \(/)]);
    const runs = await t.pool.query("SELECT count(*)::int AS n FROM sync.runs WHERE stream = 'shipments'");
    expect(runs.rows[0].n).toBe(0);
  });
});
