import { describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';

async function backfill(args: string[], env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['node', 'fulfillment-sync', 'backfill', ...args],
    createCliContext({
      env: { LOG_LEVEL: 'silent', ...env },
      print: (l) => out.push(l),
      printError: (l) => err.push(l),
    }),
  );
  return { code, out, err };
}

describe('backfill command input', () => {
  it('refuses a stream that cannot be backfilled with one line and exit 2', async () => {
    const r = await backfill(['--stream', 'products', '--from', '2026-01-01', '--to', '2026-01-02']);
    expect(r.code).toBe(2);
    expect(r.err).toEqual([expect.stringContaining('--stream must be one of shipments, returns')]);
  });

  it('refuses a bad day or a reversed range with exit 2', async () => {
    expect(
      (await backfill(['--stream', 'invoices', '--from', '2026-02-30', '--to', '2026-03-01'])).code,
    ).toBe(2);
    const reversed = await backfill(['--stream', 'invoices', '--from', '2026-03-02', '--to', '2026-03-01']);
    expect(reversed.code).toBe(2);
    expect(reversed.err).toHaveLength(1);
  });

  it('needs --stream, --from and --to', async () => {
    expect((await backfill(['--stream', 'invoices'])).code).toBe(2);
  });

  it('refuses with one line and exit 2 when no scope of the stream is configured', async () => {
    const r = await backfill(['--stream', 'invoices', '--from', '2026-01-01', '--to', '2026-01-02'], {
      FULFILLMENT_API_URL: 'http://127.0.0.1:9',
      FULFILLMENT_API_TOKEN: 'some-token',
      FULFILLMENT_SUPPLIER_IDS: 'SUP1',
    });
    expect(r.code).toBe(2);
    // The line names the one variable this stream reads, and what that variable lists.
    expect(r.err).toEqual([
      'error: nothing to sync: no scopes configured; set FULFILLMENT_ACCOUNT_NUMBERS (a comma list of the account numbers to read).',
    ]);
  });
});
