import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, runMigrations } from '../../src/db/migrate.ts';
import { readerMarks } from '../../src/db/pii/marking.ts';
import { applyReaderRole, grantReadAccess } from '../../src/db/readerRole.ts';
import { quoteIdent } from '../../src/db/urls.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { runCliInProcess } from '../helpers/inProcessCli.ts';
import { connectAs } from '../helpers/readerReach.ts';

/**
 * Closed by default, as grants go: what a migration or a hand adds later (a table, a view, a column of
 * a relation the reader already reads) is not readable by the reader (FULFILLMENT_READER_ROLE) until
 * src/db/pii/marks/ marks it, whether `migrate` runs with the variable or without; default privileges
 * an earlier version left are removed; and a grant that fails leaves the role with less, never more.
 */

const suffix = randomBytes(4).toString('hex');
const reader = `fs_grants_reader_${suffix}`;
const full = `fs_grants_full_${suffix}`;
const old = `fs_grants_old_${suffix}`;
const EMAIL = 'later.person@example.org';

let t: TestDatabase;
let asReader: pg.Client;
const folder = mkdtempSync(path.join(tmpdir(), 'fs-migrations-'));

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCliInProcess(args, { DATABASE_URL: t.url, ...env });

/** The SQLSTATE of a query as the reader, or 'ok'. */
async function asReaderCode(sql: string): Promise<string> {
  try {
    await asReader.query(sql);
    return 'ok';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** The migrations of the package plus one written by a "later version". */
function migrationsWithLater(sql: string): string {
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
    entries: Array<{ idx: number; version: string; when: number; tag: string; breakpoints: boolean }>;
  };
  const last = journal.entries.at(-1)!;
  const tag = `${String(last.idx + 1).padStart(4, '0')}_later_version`;
  journal.entries.push({
    idx: last.idx + 1,
    version: last.version,
    when: last.when + 1,
    tag,
    breakpoints: true,
  });
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(path.join(folder, `${tag}.sql`), sql);
  return folder;
}

beforeAll(async () => {
  t = await createTestDatabase();
  const migrated = await cli(['migrate'], { FULFILLMENT_READER_ROLE: reader });
  expect(migrated).toMatchObject({ code: 0, err: [] });
  await t.pool.query(
    `INSERT INTO fulfillment.invoices (invoice_number, account_number, balance_due) VALUES ('INV-1', 'ACC1', 5)`,
  );
  asReader = await connectAs(t.pool, t.url, reader);
});

afterAll(async () => {
  await asReader?.end().catch(() => {});
  for (const role of [reader, full, old]) {
    await t?.pool.query(`DROP OWNED BY ${quoteIdent(role)}`).catch(() => {});
    await t?.pool.query(`DROP ROLE IF EXISTS ${quoteIdent(role)}`).catch(() => {});
  }
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('what is added later stays closed to the reader until marked', () => {
  it('a column added by hand to a table, or to a view it reads: closed, after migrate without the variable and with it', async () => {
    await t.pool.query('ALTER TABLE fulfillment.invoices ADD COLUMN contact_email text');
    await t.pool.query(`UPDATE fulfillment.invoices SET contact_email = $1`, [EMAIL]);
    const { rows } = await t.pool.query<{ body: string }>(
      `SELECT pg_get_viewdef('analytics.open_transfers_in') AS body`,
    );
    const body = rows[0]!.body.replace(/;\s*$/, '');
    await t.pool.query(
      `CREATE OR REPLACE VIEW analytics.open_transfers_in AS SELECT v.*, '${EMAIL}'::text AS contact FROM (${body}) v`,
    );
    const closed = async () => ({
      table: await asReaderCode('SELECT contact_email FROM fulfillment.invoices'),
      maskingView: await asReaderCode('SELECT contact_email FROM fulfillment_masked.invoices'),
      view: await asReaderCode('SELECT contact FROM analytics.open_transfers_in'),
      rest: await asReaderCode('SELECT order_number, age_days FROM analytics.open_transfers_in'),
      invoice: await asReaderCode('SELECT invoice_number, balance_due FROM fulfillment_masked.invoices'),
    });
    // 42703: the masking view has no such column; 42501: permission denied.
    const expected = { table: '42501', maskingView: '42703', view: '42501', rest: 'ok', invoice: 'ok' };
    expect(await closed()).toEqual(expected);
    expect(await cli(['migrate'])).toMatchObject({ code: 0, err: [] });
    expect(await closed()).toEqual(expected);
    const again = await cli(['migrate'], { FULFILLMENT_READER_ROLE: reader });
    expect(again).toMatchObject({ code: 0, err: [] });
    expect(again.out[0]).toMatch(/not marked, so closed to it: .*analytics\.open_transfers_in\.contact/);
    expect(again.out[0]).toMatch(/fulfillment\.invoices\.contact_email/);
    expect(await closed()).toEqual(expected);
  });

  it('a table, a view and a column a later migration adds: closed, whether migrate has the variable or not', async () => {
    const later = migrationsWithLater(`
      CREATE TABLE analytics.consumer_contacts (region text, email text);
      --> statement-breakpoint
      INSERT INTO analytics.consumer_contacts VALUES ('OR', '${EMAIL}');
      --> statement-breakpoint
      CREATE VIEW fulfillment.contact_list AS SELECT '${EMAIL}'::text AS email;
      --> statement-breakpoint
      ALTER TABLE fulfillment.shipments ADD COLUMN recipient_email text;
    `);
    const result = await runMigrations(t.url, { migrationsFolder: later });
    expect(result.applied).toBe(1);
    const closed = async () => [
      await asReaderCode('SELECT region FROM analytics.consumer_contacts'),
      await asReaderCode('SELECT email FROM fulfillment.contact_list'),
      await asReaderCode('SELECT recipient_email FROM fulfillment_masked.shipments'),
    ];
    expect(await closed()).toEqual(['42501', '42501', '42703']);
    const granted = await runMigrations(t.url, { migrationsFolder: later, readerRole: reader });
    expect(granted.reader?.unmarked).toEqual(
      expect.arrayContaining([
        'analytics.consumer_contacts',
        'fulfillment.contact_list',
        'fulfillment.shipments.recipient_email',
      ]),
    );
    expect(await closed()).toEqual(['42501', '42501', '42703']);
  });

  it('opens once marked, what is marked only', async () => {
    const client = await t.pool.connect();
    try {
      const marks = readerMarks({ 'analytics.consumer_contacts': { safe: 'region', closed: 'email' } });
      const grant = await grantReadAccess(client, reader, 'masked', marks);
      expect(grant.unmarked).not.toContain('analytics.consumer_contacts');
    } finally {
      client.release();
    }
    expect((await asReader.query('SELECT region FROM analytics.consumer_contacts')).rows).toEqual([
      { region: 'OR' },
    ]);
    expect(await asReaderCode('SELECT email FROM analytics.consumer_contacts')).toBe('42501');
    // The next grant from the lists as they are closes it again.
    expect(await cli(['grant-reader', reader])).toMatchObject({ code: 0, err: [] });
    expect(await asReaderCode('SELECT region FROM analytics.consumer_contacts')).toBe('42501');
  });
});

describe('grant-reader', () => {
  it('removes the default privileges an earlier version set: relations created later stay closed', async () => {
    for (const schema of ['analytics', 'fulfillment_masked']) {
      await t.pool.query(
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT ON TABLES TO ${quoteIdent(reader)}`,
      );
    }
    expect(await cli(['grant-reader', reader])).toMatchObject({ code: 0, err: [] });
    const left = await t.pool.query(
      `SELECT count(*)::int AS n FROM pg_default_acl d, aclexplode(d.defaclacl) a
        WHERE a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)`,
      [reader],
    );
    expect(left.rows).toEqual([{ n: 0 }]);
    await t.pool.query(`CREATE TABLE analytics.created_after (email text)`);
    expect(await asReaderCode('SELECT email FROM analytics.created_after')).toBe('42501');
  });

  it('leaves the role with less, never more, when the grant fails: what it revoked stays revoked', async () => {
    const ownGrants = async () =>
      (
        await t.pool.query<{ grant: string }>(
          `SELECT table_schema || '.' || table_name || '.' || column_name || ' ' || privilege_type AS grant
             FROM information_schema.column_privileges WHERE grantee = $1 ORDER BY 1`,
          [reader],
        )
      ).rows.map((r) => r.grant);
    const before = await ownGrants();
    await applyReaderRole(t.url, full, 'full');
    // An earlier, wider grant by hand, and membership of the full reader: the grant must refuse.
    await t.pool.query(`GRANT SELECT ON fulfillment.orders TO ${quoteIdent(reader)}`);
    await t.pool.query(`GRANT ${quoteIdent(full)} TO ${quoteIdent(reader)}`);
    const refused = await cli(['grant-reader', reader]);
    expect(refused.code).toBe(1);
    expect(refused.err).toEqual([
      expect.stringMatching(
        `^error: role "${reader}" can still read personal data in clear \\(fulfillment\\.`,
      ),
    ]);
    await t.pool.query(`REVOKE ${quoteIdent(full)} FROM ${quoteIdent(reader)}`);
    // The hand grant was revoked before the refusal and stays revoked; nothing was added.
    expect(await asReaderCode('SELECT notification_email FROM fulfillment.orders')).toBe('42501');
    const after = await ownGrants();
    expect(after.filter((g) => !before.includes(g))).toEqual([]);
    expect(await cli(['grant-reader', reader])).toMatchObject({ code: 0, err: [] });
    expect(await asReaderCode('SELECT notification_email FROM fulfillment_masked.orders')).toBe('ok');
  });
});

describe('upgrading from an earlier version', () => {
  it('takes away what it granted a reader, the future and the tables, even when migrate names no reader', async () => {
    const ident = quoteIdent(old);
    // What an earlier grant-reader left: whole tables of fulfillment without a PII column (raw and
    // free text included), the masking views and analytics, and their future.
    await t.pool.query(`CREATE ROLE ${ident} NOLOGIN`);
    for (const schema of ['fulfillment', 'fulfillment_masked', 'analytics']) {
      await t.pool.query(`GRANT USAGE ON SCHEMA ${schema} TO ${ident}`);
    }
    await t.pool.query(
      `GRANT SELECT ON fulfillment.order_messages, fulfillment.invoices, fulfillment.shipment_status,
                       fulfillment_masked.orders TO ${ident}`,
    );
    for (const schema of ['fulfillment_masked', 'analytics']) {
      await t.pool.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT ON TABLES TO ${ident}`);
    }
    const file = readdirSync(MIGRATIONS_FOLDER).find((f) => f.endsWith('_reader_grants_closed.sql'));
    expect(file, 'the migration that closes what earlier versions granted').toBeDefined();
    await t.pool.query(readFileSync(path.join(MIGRATIONS_FOLDER, file!), 'utf8'));
    const can = async (relation: string) =>
      (
        await t.pool.query<{ can: boolean }>('SELECT has_table_privilege($1, $2, $3) AS can', [
          old,
          relation,
          'SELECT',
        ])
      ).rows[0]!.can;
    expect({
      orderMessages: await can('fulfillment.order_messages'),
      invoices: await can('fulfillment.invoices'),
      shipmentStatus: await can('fulfillment.shipment_status'),
    }).toEqual({ orderMessages: false, invoices: false, shipmentStatus: true });
    const left = await t.pool.query(
      `SELECT count(*)::int AS n FROM pg_default_acl d, aclexplode(d.defaclacl) a
        WHERE a.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)`,
      [old],
    );
    expect(left.rows).toEqual([{ n: 0 }]);
    await t.pool.query('CREATE TABLE analytics.after_upgrade (x int)');
    expect(await can('analytics.after_upgrade')).toBe(false);
  });
});
