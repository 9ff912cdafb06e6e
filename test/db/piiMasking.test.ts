import { createHmac, randomBytes } from 'node:crypto';
import type pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshAllAnalytics } from '../../src/analytics/refresh.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { PII_MARKER } from '../../src/db/pii/marking.ts';
import { applyReaderRole, ReaderRoleError } from '../../src/db/readerRole.ts';
import { quoteIdent } from '../../src/db/urls.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { connectAs, leaves, reachableRelations } from '../helpers/readerReach.ts';
import { simulatorClient, syncEveryScope } from '../helpers/syncHarness.ts';

/**
 * Consumer personal data reaches the reader role (FULFILLMENT_READER_ROLE) only masked, and the
 * full reader (FULFILLMENT_FULL_READER_ROLE) in clear, after a simulated sync of every stream. The
 * personal columns are found from their comments (the PII marker), never from a list written here;
 * the reader's reach is every relation of every schema it can select from (fulfillment, its masking
 * views, the analytics model), raw JSON included.
 */

const logger = pino({ level: 'silent' });
const START = new Date('2026-03-02T08:00:00Z');
const HISTORY_DAYS = 6;
const suffix = randomBytes(4).toString('hex');
const reader = `fs_pii_reader_${suffix}`;
const full = `fs_pii_full_${suffix}`;
const member = `fs_pii_member_${suffix}`;

let t: TestDatabase;
let sim: RunningSimulator;
let asReader: pg.Client;
let asFull: pg.Client;

interface PiiColumn {
  table: string;
  column: string;
  type: string;
  comment: string;
}
let piiColumns: PiiColumn[];

async function errorCodeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

beforeAll(async () => {
  t = await createTestDatabase();
  sim = await startSimulator({
    seed: 5,
    clock: 'manual',
    start: START,
    volume: { historyDays: HISTORY_DAYS, suppliers: 1, winesPerSupplier: 8 },
  });
  const config = loadConfig({
    DATABASE_URL: t.url,
    FULFILLMENT_SYNC_START: new Date(START.getTime() - HISTORY_DAYS * 86_400_000).toISOString(),
  });
  const client = simulatorClient(sim, config);
  const eventSink = createEventSink({ timezone: config.timezone, thresholds: config.events });
  const failed = await syncEveryScope({ pool: t.pool, client, config, logger, sim, eventSink });
  expect(failed.map((r) => `${r.stream} ${r.scope.id}: ${r.error}`)).toEqual([]);
  // The analytics model as the worker keeps it: the reader reads it too.
  const refreshed = await refreshAllAnalytics(t.pool);
  expect(refreshed.filter((r) => r.status !== 'refreshed')).toEqual([]);
  await applyReaderRole(t.url, full, 'full');
  await applyReaderRole(t.url, reader, 'masked');
  asReader = await connectAs(t.pool, t.url, reader);
  asFull = await connectAs(t.pool, t.url, full);
  const { rows } = await t.pool.query<PiiColumn>(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
            col_description(c.oid, a.attnum) AS comment
       FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE c.relnamespace = 'fulfillment'::regnamespace AND col_description(c.oid, a.attnum) ~ $1
      ORDER BY 1, 2`,
    [`\\m${PII_MARKER}\\M`],
  );
  piiColumns = rows;
}, 180_000);

afterAll(async () => {
  await asReader?.end().catch(() => {});
  await asFull?.end().catch(() => {});
  await sim?.close();
  for (const role of [reader, full, member]) {
    await t?.pool.query(`DROP OWNED BY ${quoteIdent(role)}`).catch(() => {});
    await t?.pool.query(`DROP ROLE IF EXISTS ${quoteIdent(role)}`).catch(() => {});
  }
  await t?.close();
});

/** The values in clear of every column marked PII, as the table owner reads them. */
async function clearValues(): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const { table, column, type, comment } of piiColumns) {
    // JSON with personal members (raw and the like) holds the scalar columns' values there, beside
    // order numbers and SKUs that are not personal: its own leaves are not collected.
    if (comment.includes(`${PII_MARKER} inside`)) continue;
    const { rows } = await t.pool.query<{ value: unknown }>(
      `SELECT DISTINCT to_jsonb(${quoteIdent(column)}) AS value FROM fulfillment.${quoteIdent(table)}
        WHERE ${quoteIdent(column)} IS NOT NULL`,
    );
    for (const { value } of rows) {
      // Personal JSON as a whole (personalizations): its texts, not its line numbers.
      const texts =
        type === 'jsonb'
          ? leaves(value).filter((leaf) => typeof leaf === 'string' && !/^\d*$/.test(leaf))
          : leaves(value);
      for (const leaf of texts) {
        if (leaf.trim().length >= 2) found.set(leaf.trim(), `${table}.${column}`);
      }
    }
  }
  return found;
}

interface Exposure {
  /** Leaves equal to a personal value: `relation: value (from table.column)`. */
  exact: string[];
  /** Leaves that contain a known e-mail address or phone number. */
  emails: number;
  phones: number;
  relations: number;
  rows: number;
}

/** Reads everything `client` (logged in as `role`) can reach and finds the personal values in it. */
async function exposureOf(client: pg.Client, role: string): Promise<Exposure> {
  const personal = await clearValues();
  const emails = [...personal.keys()].filter((v) => /^[^@\s]+@[^@\s]+$/.test(v));
  const phones = [...personal.entries()]
    .filter(([, from]) => /phone/.test(from))
    .map(([v]) => v)
    .filter((v) => v.length >= 7);
  expect(emails.length, 'e-mail addresses in the synced data').toBeGreaterThan(20);
  expect(phones.length, 'phone numbers in the synced data').toBeGreaterThan(20);
  const exposure: Exposure = { exact: [], emails: 0, phones: 0, relations: 0, rows: 0 };
  for (const { relation, columns } of await reachableRelations(t.pool, role)) {
    exposure.relations += 1;
    const { rows } = await client.query<{ row: unknown }>(
      `SELECT to_jsonb(x) AS row FROM (SELECT ${columns.join(', ')} FROM ${relation}) x`,
    );
    exposure.rows += rows.length;
    for (const { row } of rows) {
      for (const leaf of leaves(row)) {
        const from = personal.get(leaf.trim());
        if (from) exposure.exact.push(`${relation}: ${leaf} (from ${from})`);
        if (emails.some((e) => leaf.includes(e))) exposure.emails += 1;
        if (phones.some((p) => leaf.includes(p))) exposure.phones += 1;
      }
    }
  }
  return exposure;
}

describe('personal data marked in the comments', () => {
  it('includes names, e-mails, phones, street lines and the raw JSON carrying them', () => {
    const marked = piiColumns.map((c) => `${c.table}.${c.column}`);
    expect(marked).toEqual(
      expect.arrayContaining([
        'orders.notification_email',
        'orders.notification_phone',
        'orders.raw',
        'order_addresses.first_name',
        'order_addresses.last_name',
        'order_addresses.address1',
        'order_addresses.raw',
        'returns.consumer_first_name',
        'returns.consumer_address1',
        'returns.notification_email_address',
        'returns.notification_phone_number',
        'returns.raw',
      ]),
    );
    // City, state, postal code and country stay readable: they are not marked.
    for (const kept of ['order_addresses.city', 'order_addresses.postal_code', 'returns.consumer_zip_code']) {
      expect(marked, kept).not.toContain(kept);
    }
  });
});

describe('the reader role (FULFILLMENT_READER_ROLE)', () => {
  it('reads no personal value in clear, through any table or view it can reach, raw JSON included', async () => {
    const exposure = await exposureOf(asReader, reader);
    expect(exposure.relations).toBeGreaterThan(25);
    expect(exposure.rows).toBeGreaterThan(1000);
    expect(exposure.exact).toEqual([]);
    expect({ emails: exposure.emails, phones: exposure.phones }).toEqual({ emails: 0, phones: 0 });
  }, 120_000);

  it('cannot select a column marked PII from its table', async () => {
    const readable: string[] = [];
    for (const { table, column } of piiColumns) {
      const code = await errorCodeOf(
        asReader.query(`SELECT ${quoteIdent(column)} FROM fulfillment.${quoteIdent(table)} LIMIT 1`),
      );
      if (code !== '42501') readable.push(`${table}.${column}: ${code ?? 'read'}`);
    }
    expect(piiColumns.length).toBeGreaterThan(10);
    expect(readable).toEqual([]);
  });

  it('reads stable keyed hashes: HMAC-SHA-256 with the key it cannot read, usable to join and count consumers', async () => {
    const key = (await t.pool.query<{ key: Buffer }>('SELECT key FROM sync.pii_key')).rows[0]!.key;
    const clear = await t.pool.query<{ order_number: string; notification_email: string }>(
      `SELECT order_number, notification_email FROM fulfillment.orders
        WHERE notification_email IS NOT NULL ORDER BY order_number LIMIT 5`,
    );
    const masked = await asReader.query<{ order_number: string; notification_email: string }>(
      'SELECT order_number, notification_email FROM fulfillment_masked.orders WHERE order_number = ANY ($1) ORDER BY order_number',
      [clear.rows.map((r) => r.order_number)],
    );
    expect(masked.rows).toEqual(
      clear.rows.map((r) => ({
        order_number: r.order_number,
        notification_email: createHmac('sha256', key)
          .update(r.notification_email.trim().toLowerCase())
          .digest('hex'),
      })),
    );
    expect(await errorCodeOf(asReader.query('SELECT key FROM sync.pii_key'))).toBe('42501');

    const count = `SELECT count(DISTINCT notification_email)::int AS consumers FROM %s.orders`;
    const distinctClear = await t.pool.query(count.replace('%s', 'fulfillment'));
    const distinctMasked = await asReader.query(count.replace('%s', 'fulfillment_masked'));
    expect(distinctMasked.rows).toEqual(distinctClear.rows);
    const join = `SELECT count(*)::int AS n FROM %s.returns r JOIN %s.orders o
                    ON o.notification_email = r.notification_email_address`;
    const joinedClear = await t.pool.query(join.replaceAll('%s', 'fulfillment'));
    const joinedMasked = await asReader.query(join.replaceAll('%s', 'fulfillment_masked'));
    expect(joinedClear.rows[0].n).toBeGreaterThan(0);
    expect(joinedMasked.rows).toEqual(joinedClear.rows);
  });

  it('keeps city, state, postal code and country, and the shape of raw JSON', async () => {
    const query = `SELECT a.city, a.state_code, a.postal_code, a.country_code,
                          a.raw->>'city' AS raw_city, a.raw->>'postalCode' AS raw_postal,
                          jsonb_typeof(a.raw->'firstName') AS first_name_type
                     FROM %s.order_addresses a ORDER BY a.order_number, a.role LIMIT 20`;
    const clear = await t.pool.query(query.replace('%s', 'fulfillment'));
    const masked = await asReader.query(query.replace('%s', 'fulfillment_masked'));
    expect(masked.rows.length).toBe(20);
    expect(masked.rows).toEqual(clear.rows);
  });

  it('reads the six BI views of schema fulfillment as before', async () => {
    for (const view of [
      'shipment_status',
      'open_returns',
      'inventory_current',
      'invoice_balances',
      'shipments_per_day',
      'sync_health',
    ]) {
      const query = `SELECT count(*)::int AS n FROM fulfillment.${view}`;
      const owner = await t.pool.query(query);
      expect(await asReader.query(query).then((r) => r.rows), view).toEqual(owner.rows);
    }
  });

  it('is refused, granting nothing, when it belongs to the full reader role', async () => {
    await t.pool.query(`CREATE ROLE ${quoteIdent(member)} NOLOGIN`);
    await t.pool.query(`GRANT ${quoteIdent(full)} TO ${quoteIdent(member)}`);
    const refused = await applyReaderRole(t.url, member, 'masked').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ReaderRoleError);
    expect((refused as Error).message).toMatch(
      new RegExp(`^role "${member}" can still read personal data in clear \\(fulfillment\\.`),
    );
    // Its own grants only: what it inherits from the full reader is that role's.
    const granted = await t.pool.query(
      `SELECT count(*)::int AS n FROM information_schema.role_table_grants WHERE grantee = $1`,
      [member],
    );
    expect(granted.rows).toEqual([{ n: 0 }]);
  });
});

describe('the full reader role (FULFILLMENT_FULL_READER_ROLE)', () => {
  it('reads every column marked PII in clear, as stored', async () => {
    const differ: string[] = [];
    for (const { table, column } of piiColumns) {
      const query = `SELECT md5(string_agg(${quoteIdent(column)}::text, '|' ORDER BY ${quoteIdent(column)}::text)) AS digest,
                            count(${quoteIdent(column)})::int AS n
                       FROM fulfillment.${quoteIdent(table)}`;
      const owner = (await t.pool.query(query)).rows[0];
      const seen = (await asFull.query(query)).rows[0];
      if (JSON.stringify(seen) !== JSON.stringify(owner)) differ.push(`${table}.${column}`);
    }
    expect(differ).toEqual([]);
    const exposure = await exposureOf(asFull, full);
    expect(exposure.emails).toBeGreaterThan(100);
    expect(exposure.phones).toBeGreaterThan(100);
  }, 120_000);
});
