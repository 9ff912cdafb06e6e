import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { type CliResult, linesOf, runCliInProcess, runSourceCli } from '../helpers/cli.ts';
import { createTestDatabase } from './harness.ts';

/**
 * `webhooks add|update --types 'shipment.*' --accounts ... --suppliers ...` as a user types them:
 * stored and listed as given; a pattern matching no type or a bad id is one line, exit 2, before
 * anything is stored; an id that no configured scope has is noted.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const PRIVATE_OK = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' };

function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent', ...PRIVATE_OK, ...extra };
}

function cli(args: string[], extra: Record<string, string> = {}): Promise<CliResult> {
  return runCliInProcess(args, env(extra));
}

const fieldOf = (result: CliResult, name: string) =>
  linesOf(result.stdout)
    .find((line) => line.trimStart().startsWith(`${name}: `))
    ?.trimStart()
    .slice(name.length + 2);

describe('webhooks add and update with filters', () => {
  it('store family patterns and scopes as given, list and show them, and change or clear them', async () => {
    const added = await cli([
      'webhooks',
      'add',
      'http://127.0.0.1:9/filtered',
      '--types',
      'shipment.*,order.hold_added',
      '--accounts',
      'A1,A2',
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(fieldOf(added, 'types')).toBe('shipment.*,order.hold_added');
    expect(fieldOf(added, 'scopes')).toBe('accounts A1,A2');
    const id = fieldOf(added, 'id') ?? '';
    expect(await getEndpoint(database.pool, id)).toMatchObject({
      eventTypes: ['shipment.*', 'order.hold_added'],
      accountNumbers: ['A1', 'A2'],
      supplierIds: [],
    });

    const listed = await cli(['webhooks', 'list']);
    expect(linesOf(listed.stdout).find((line) => line.startsWith(id))).toContain(
      'shipment.*,order.hold_added  (accounts A1,A2)',
    );
    const json = await cli(['webhooks', 'get', id, '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      eventTypes: ['shipment.*', 'order.hold_added'],
      accountNumbers: ['A1', 'A2'],
      supplierIds: [],
    });

    const updated = await cli(['webhooks', 'update', id, '--types', 'inventory.*', '--suppliers', 'S1']);
    expect(updated.code, updated.stderr).toBe(0);
    expect(fieldOf(updated, 'types')).toBe('inventory.*');
    expect(fieldOf(updated, 'scopes')).toBe('accounts A1,A2; suppliers S1');
    const cleared = await cli([
      'webhooks',
      'update',
      id,
      '--accounts',
      '',
      '--suppliers',
      '',
      '--types',
      'all',
    ]);
    expect(cleared.code, cleared.stderr).toBe(0);
    expect(fieldOf(cleared, 'types')).toBe('(all)');
    expect(fieldOf(cleared, 'scopes')).toBe('(all)');
  });

  it('notes filter ids that no configured scope has', async () => {
    const added = await cli(
      ['webhooks', 'add', 'http://127.0.0.1:9/noted', '--accounts', 'A1,A9', '--suppliers', 'S1'],
      { FULFILLMENT_ACCOUNT_NUMBERS: 'A1,A2', FULFILLMENT_SUPPLIER_IDS: 'S1' },
    );
    expect(added.code, added.stderr).toBe(0);
    expect(linesOf(added.stdout).filter((line) => line.startsWith('note:'))).toEqual([
      'note: account(s) A9 not in FULFILLMENT_ACCOUNT_NUMBERS (A1, A2): no events come from it until it is.',
    ]);
  });

  it('refuses a pattern matching no type, a * elsewhere, and bad ids: one line, exit 2, nothing stored', async () => {
    const before = await database.pool.query('SELECT count(*)::int AS n FROM sync.webhook_endpoints');
    const cases: Array<[string[], RegExp]> = [
      [
        ['--types', 'shipmnt.*'],
        /^error: Unknown event type\(s\) or pattern\(s\): shipmnt\.\*\. Known types: /,
      ],
      [['--types', '*.created'], /^error: Unknown event type\(s\) or pattern\(s\): \*\.created\./],
      [['--types', 'ship*'], /^error: Unknown event type\(s\) or pattern\(s\): ship\*\./],
      [['--accounts', 'A 1'], /^error: --accounts: not an id: "A 1"/],
    ];
    for (const [flags, line] of cases) {
      const result = await cli(['webhooks', 'add', 'http://127.0.0.1:9/refused', ...flags]);
      expect(result.code, flags.join(' ')).toBe(2);
      expect(linesOf(result.stderr), flags.join(' ')).toEqual([expect.stringMatching(line)]);
      expect(result.stdout).toBe('');
    }
    const update = await cli(['webhooks', 'update', 'ep_nope', '--types', 'shipmnt.*']);
    // Checked before the endpoint is looked up: a usage error, not "no endpoint".
    expect([update.code, linesOf(update.stderr).length]).toEqual([2, 1]);
    const after = await database.pool.query('SELECT count(*)::int AS n FROM sync.webhook_endpoints');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    // The same as a real process: exit status 2, one line, nothing on stdout.
    const real = await runSourceCli(['webhooks', 'add', 'http://127.0.0.1:9/x', '--types', 'shipmnt.*'], {
      env: env(),
    });
    expect([real.code, linesOf(real.stderr).length, real.stdout]).toEqual([2, 1, '']);
  });
});
