import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';
import { quoteIdent } from '../../src/db/urls.ts';
import { freshDatabaseUrl } from '../helpers/db.ts';

/**
 * FULFILLMENT_READER_ROLE and `grant-reader`: a login of the reader role reads the tables of schema
 * fulfillment only through their masking views (fulfillment_masked; test/db/piiMasking.test.ts checks
 * the masking, test/db/readerClosed.test.ts what stays closed), the views of fulfillment and the
 * analytics model, and can neither write there nor read schema sync (webhook secrets). Roles are
 * cluster-wide, so each test run uses unique names and drops them at the end.
 */

const target = freshDatabaseUrl();
const suffix = randomBytes(4).toString('hex');
const reader = `fs_reader_${suffix}`;
const writer = `fs_writer_${suffix}`;
const fullReader = `fs_full_${suffix}`;
const password = randomBytes(12).toString('hex');
let admin: pg.Client;
let asReader: pg.Client;

interface Cli {
  code: number;
  out: string[];
  err: string[];
}

async function cli(args: string[], env: Record<string, string> = {}): Promise<Cli> {
  const out: string[] = [];
  const err: string[] = [];
  const previousCode = process.exitCode;
  try {
    const context = createCliContext({
      env: { ...process.env, DATABASE_URL: target.url, LOG_LEVEL: 'silent', ...env },
      print: (line) => out.push(line),
      printError: (line) => err.push(line),
    });
    return { code: await runCli(['node', 'fulfillment-sync', ...args], context), out, err };
  } finally {
    process.exitCode = previousCode;
  }
}

/** Connects to the target database as `role` (given LOGIN and a password for the test). */
async function connectAs(role: string): Promise<pg.Client> {
  await admin.query(`ALTER ROLE ${quoteIdent(role)} LOGIN PASSWORD '${password}'`);
  const url = new URL(target.url);
  url.username = role;
  url.password = password;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return client;
}

async function errorCodeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

beforeAll(async () => {
  const migrated = await cli(['migrate'], { FULFILLMENT_READER_ROLE: reader });
  expect(migrated.err).toEqual([]);
  expect(migrated.code).toBe(0);
  expect(migrated.out).toEqual([
    expect.stringMatching(
      new RegExp(
        `applied \\d+ of \\d+ migrations.*created role "${reader}" \\(NOLOGIN\\) can read fulfillment_masked \\(\\d+ masking views: the tables of fulfillment, personal data masked\\), fulfillment \\(6 views\\) and analytics \\(\\d+ relations\\), \\d+ columns marked readable, and nothing else\\.$`,
      ),
    ),
  ]);
  admin = new pg.Client({ connectionString: target.url });
  await admin.connect();
  asReader = await connectAs(reader);
});

afterAll(async () => {
  await asReader?.end().catch(() => {});
  for (const role of [reader, writer, fullReader]) {
    await admin?.query(`DROP OWNED BY ${quoteIdent(role)}`).catch(() => {});
    await admin?.query(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
  }
  await admin?.end();
  await target.drop();
});

describe('a reader role applied by migrate (FULFILLMENT_READER_ROLE)', () => {
  it('reads a masking view for every table of fulfillment, the views of fulfillment and schema analytics, and no table of fulfillment', async () => {
    const { rows } = await admin.query<{ name: string; kind: string }>(
      `SELECT n.nspname || '.' || c.relname AS name, c.relkind::text AS kind FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname IN ('fulfillment', 'fulfillment_masked', 'analytics') AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
        ORDER BY 1`,
    );
    const tables = rows.filter((r) => r.kind === 'r' && r.name.startsWith('fulfillment.')).map((r) => r.name);
    expect(tables.length).toBeGreaterThanOrEqual(22);
    expect(rows.filter((r) => r.kind === 'v' || r.kind === 'm').map((r) => r.name)).toEqual(
      expect.arrayContaining([
        'fulfillment.shipment_status',
        'fulfillment.open_returns',
        'fulfillment.inventory_current',
        'fulfillment.sync_health',
        'fulfillment_masked.orders',
        'fulfillment_masked.invoices',
        'analytics.return_rate_by_sku',
      ]),
    );
    // Every table has its masking view.
    for (const table of tables) {
      expect(
        rows.map((r) => r.name),
        table,
      ).toContain(table.replace(/^fulfillment\./, 'fulfillment_masked.'));
    }
    const denied: string[] = [];
    for (const { name } of rows) {
      const [schema, relation] = name.split('.') as [string, string];
      const code = await errorCodeOf(
        asReader.query(`SELECT * FROM ${schema}.${quoteIdent(relation)} LIMIT 1`),
      );
      if (code !== undefined) denied.push(`${name}: ${code}`);
    }
    expect(denied).toEqual(tables.map((table) => `${table}: 42501`));
  });

  it('sees sync health through the view while schema sync stays closed to it', async () => {
    await admin.query(
      `INSERT INTO sync.runs (stream, scope, status, finished_at, inserted) VALUES ('invoices', 'ACC1', 'succeeded', now(), 3)`,
    );
    const health = await asReader.query('SELECT stream, rows_24h FROM fulfillment.sync_health');
    expect(health.rows).toEqual([{ stream: 'invoices', rows_24h: '3' }]);
    for (const table of ['webhook_endpoints', 'runs', 'events']) {
      expect(await errorCodeOf(asReader.query(`SELECT * FROM sync.${table} LIMIT 1`)), table).toBe('42501');
    }
  });

  it('cannot insert, update, delete or truncate in schema fulfillment', async () => {
    await admin.query(`INSERT INTO fulfillment.invoices (invoice_number, balance_due) VALUES ('INV-R1', 5)`);
    const writes = [
      `INSERT INTO fulfillment.invoices (invoice_number) VALUES ('INV-R2')`,
      `UPDATE fulfillment.invoices SET balance_due = 0 WHERE invoice_number = 'INV-R1'`,
      `DELETE FROM fulfillment.invoices WHERE invoice_number = 'INV-R1'`,
      'TRUNCATE fulfillment.invoices',
      `CREATE TABLE fulfillment.reader_made (x int)`,
    ];
    for (const statement of writes) {
      expect(await errorCodeOf(asReader.query(statement)), statement).toBe('42501');
    }
    const still = await asReader.query(
      `SELECT balance_due FROM fulfillment_masked.invoices WHERE invoice_number = 'INV-R1'`,
    );
    expect(still.rows).toEqual([{ balance_due: '5' }]);
  });

  it('does not read tables and views added to fulfillment later, even once granted again, until they are marked', async () => {
    await admin.query('CREATE TABLE fulfillment.added_later (x int)');
    await admin.query('CREATE VIEW fulfillment.added_later_view AS SELECT 1 AS one');
    await admin.query('INSERT INTO fulfillment.added_later VALUES (7)');
    const granted = await cli(['grant-reader', reader]);
    expect(granted).toMatchObject({ code: 0, err: [] });
    expect(granted.out).toEqual([
      expect.stringMatching(
        /; not marked, so closed to it: fulfillment\.added_later, fulfillment\.added_later_view\.$/,
      ),
    ]);
    expect(await errorCodeOf(asReader.query('SELECT x FROM fulfillment.added_later'))).toBe('42501');
    expect(await errorCodeOf(asReader.query('SELECT one FROM fulfillment.added_later_view'))).toBe('42501');
    expect(await errorCodeOf(asReader.query('INSERT INTO fulfillment.added_later VALUES (8)'))).toBe('42501');
    await admin.query('DROP VIEW fulfillment.added_later_view');
    await admin.query('DROP TABLE fulfillment.added_later');
  });

  it('is idempotent: migrate again and grant-reader keep the role as it is', async () => {
    const again = await cli(['migrate'], { FULFILLMENT_READER_ROLE: reader });
    expect(again.code).toBe(0);
    expect(again.out).toEqual([
      expect.stringMatching(`already up to date.*; role "${reader}" can read fulfillment_masked`),
    ]);
    const granted = await cli(['grant-reader', reader]);
    expect(granted).toMatchObject({ code: 0, err: [] });
    expect(granted.out).toEqual([
      expect.stringMatching(`^role "${reader}" can read fulfillment_masked \\(\\d+ masking views: `),
    ]);
    expect((await asReader.query('SELECT count(*)::int AS n FROM fulfillment_masked.invoices')).rows).toEqual(
      [{ n: 1 }],
    );
  });
});

describe('the masking key (sync.pii_key)', () => {
  it('is written once by migrate, kept by later ones, and written anew when deleted', async () => {
    const keyOf = async () =>
      (await admin.query<{ key: Buffer }>('SELECT key FROM sync.pii_key')).rows.map((r) =>
        r.key.toString('hex'),
      );
    const first = await keyOf();
    expect(first).toEqual([expect.stringMatching(/^[0-9a-f]{128}$/)]);
    expect((await cli(['migrate'])).code).toBe(0);
    expect(await keyOf()).toEqual(first);
    await admin.query('DELETE FROM sync.pii_key');
    expect((await cli(['migrate'])).code).toBe(0);
    const renewed = await keyOf();
    expect(renewed).toEqual([expect.stringMatching(/^[0-9a-f]{128}$/)]);
    expect(renewed).not.toEqual(first);
  });
});

describe('fulfillment-sync grant-reader', () => {
  it('turns an existing role with write grants into a reader: its writes there are revoked', async () => {
    await admin.query(`CREATE ROLE ${quoteIdent(writer)} NOLOGIN`);
    await admin.query(`GRANT USAGE ON SCHEMA fulfillment TO ${quoteIdent(writer)}`);
    await admin.query(`GRANT INSERT, SELECT ON fulfillment.invoices TO ${quoteIdent(writer)}`);
    const granted = await cli(['grant-reader', writer]);
    expect(granted).toMatchObject({ code: 0, err: [] });
    const client = await connectAs(writer);
    try {
      expect(
        await errorCodeOf(client.query(`INSERT INTO fulfillment.invoices (invoice_number) VALUES ('W1')`)),
      ).toBe('42501');
      expect((await client.query('SELECT count(*)::int AS n FROM fulfillment.open_returns')).rows).toEqual([
        { n: 0 },
      ]);
    } finally {
      await client.end();
    }
  });

  it('--full reads personal data in clear; granting the same role again without it takes that away', async () => {
    await admin.query(
      `INSERT INTO fulfillment.orders (account_number, order_number, creation_date, notification_email, is_onsite_purchase,
         is_line_haul, is_editable, is_cancellable, is_back_ordered, has_inventory_hold)
       VALUES ('ACC1', 'SO-PII', now(), 'ana.kim@example.com', false, false, false, false, false, false)`,
    );
    const granted = await cli(['grant-reader', fullReader, '--full']);
    expect(granted).toMatchObject({ code: 0, err: [] });
    expect(granted.out[0]).toMatch(
      `role "${fullReader}" (NOLOGIN) can read schema fulfillment in full, personal data in clear`,
    );
    const client = await connectAs(fullReader);
    try {
      const clear = await client.query(
        `SELECT notification_email FROM fulfillment.orders WHERE order_number = 'SO-PII'`,
      );
      expect(clear.rows).toEqual([{ notification_email: 'ana.kim@example.com' }]);
      // What an earlier version gave every reader (SELECT on all of fulfillment) is taken back.
      expect((await cli(['grant-reader', fullReader])).code).toBe(0);
      expect(await errorCodeOf(client.query('SELECT notification_email FROM fulfillment.orders'))).toBe(
        '42501',
      );
      const masked = await client.query(
        `SELECT notification_email FROM fulfillment_masked.orders WHERE order_number = 'SO-PII'`,
      );
      expect(masked.rows).toEqual([{ notification_email: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    } finally {
      await client.end();
      await admin.query(`DELETE FROM fulfillment.orders WHERE order_number = 'SO-PII'`);
    }
  });

  it('rejects FULFILLMENT_FULL_READER_ROLE naming the reader role: one line, exit code 2', async () => {
    const result = await cli(['migrate'], {
      FULFILLMENT_READER_ROLE: reader,
      FULFILLMENT_FULL_READER_ROLE: reader,
    });
    expect(result.code).toBe(2);
    expect(result.err).toEqual([
      expect.stringMatching(/^FULFILLMENT_FULL_READER_ROLE: must name another role/),
    ]);
  });

  it('refuses a superuser with one line and exit code 1', async () => {
    const { rows } = await admin.query<{ name: string }>('SELECT current_user AS name');
    const result = await cli(['grant-reader', rows[0]!.name]);
    expect(result.code).toBe(1);
    expect(result.err).toEqual([expect.stringMatching(/^error: role ".+" is a superuser/)]);
  });

  it('rejects a bad role name before connecting: one line, exit code 2', async () => {
    for (const name of ['Bad-Name', 'x; DROP TABLE y', 'pg_reader', 'public', 'a'.repeat(64)]) {
      const result = await cli(['grant-reader', name], {
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      });
      expect(result.code, name).toBe(2);
      expect(result.err, name).toEqual([expect.stringMatching(/^error: role name must/)]);
    }
  });

  it('rejects a bad FULFILLMENT_READER_ROLE as configuration: one line naming it, exit code 2', async () => {
    const result = await cli(['migrate'], { FULFILLMENT_READER_ROLE: 'BI Reader' });
    expect(result.code).toBe(2);
    expect(result.err).toEqual([
      expect.stringMatching(/^FULFILLMENT_READER_ROLE: must be a lowercase role name/),
    ]);
  });

  it('tells to migrate first when schema fulfillment is missing', async () => {
    const empty = freshDatabaseUrl();
    await admin.query(`CREATE DATABASE ${quoteIdent(empty.name)}`);
    try {
      const result = await cli(['grant-reader', reader], { DATABASE_URL: empty.url });
      expect(result.code).toBe(1);
      expect(result.err).toEqual([
        expect.stringMatching(/schema fulfillment does not exist.*run `npx fulfillment-sync migrate` first/),
      ]);
    } finally {
      await empty.drop();
    }
  });
});
