import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncOnceAction } from '../../src/cli/commands/sync.ts';
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
    expect(c.errors[0]).toMatch(/unknown stream "bogus"; valid streams: .*shipments/);
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
    expect(c.lines).toHaveLength(1);
    expect(c.lines[0]).toMatch(/^invoices .* inserted [1-9]\d* .* ok$/);
    const stored = await t.pool.query('SELECT count(*)::int AS n FROM fulfillment.invoices');
    expect(stored.rows[0].n).toBeGreaterThan(0);
  });
});
