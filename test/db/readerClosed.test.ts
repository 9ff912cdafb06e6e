import { createHmac, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshAllAnalytics } from '../../src/analytics/refresh.ts';
import { applyReaderRole } from '../../src/db/readerRole.ts';
import { quoteIdent } from '../../src/db/urls.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { type InProcessCliResult, runCliInProcess } from '../helpers/inProcessCli.ts';
import { connectAs, findInReach } from '../helpers/readerReach.ts';

/**
 * Closed by default, as a reader sees it: an order whose JSON carries members no list names (names,
 * e-mails, phones, street lines, free text, at several depths, a phone as a number, a member named by
 * an e-mail), free-text columns holding an e-mail, and columns marked safe holding values that look
 * personal. The reader (FULFILLMENT_READER_ROLE) reads none of it in clear anywhere it can read;
 * `grant-reader` withholds, and names, the columns it reads as they are where such values are;
 * `pii-audit` finds nothing for the reader and finds them for the full reader.
 */

const suffix = randomBytes(4).toString('hex');
const reader = `fs_closed_reader_${suffix}`;
const full = `fs_closed_full_${suffix}`;

const NAME = 'Jane Quimby';
const EMAIL = 'jane.quimby@example.net';
const PHONE = '(415) 555-0199';
const STREET = '742 Evergreen Terrace';
const MEMO = 'Leave the case with the neighbour at the back door';
/** What must never be read in clear: any value containing one of these. */
const NEEDLES = ['Quimby', EMAIL, '555-0199', '4155550199', 'Evergreen', 'back door'];

const ORDER = 'SO-CLOSED-1';
const raw = {
  header: {
    accountNumber: 'ACC1',
    orderNumber: ORDER,
    customerName: EMAIL,
    orderStatusCode: 'SHIPPED',
    notificationEmail: EMAIL,
    recipient: NAME,
    contact: EMAIL,
    tel: PHONE,
    shipToAddress1: STREET,
    memo: MEMO,
  },
  billings: [
    {
      billTo: { name: NAME, attention: NAME, phone: 4155550199, lines: [STREET, 'Springfield'] },
      amount: 12.5,
      description: `Call ${PHONE}`,
    },
  ],
  notes: [{ text: MEMO, createdBy: EMAIL }],
  lineItems: [
    {
      lineNumber: '1',
      sku: 'W1',
      quantityOrdered: 2,
      description: `Gift, questions to ${EMAIL}`,
      vasOrderPersonalizations: [{ type: 'ENGRAVE', message: `For ${NAME}`, options: [{ option: NAME }] }],
    },
  ],
  deliverToConsumers: [
    {
      firstName: 'Jane',
      lastName: 'Quimby',
      address1: STREET,
      city: 'Springfield',
      postalCode: '97477',
      extra: { instructions: MEMO, nested: [{ who: NAME, since: 2019 }] },
    },
  ],
  [EMAIL]: { seen: true },
};

let t: TestDatabase;
let asReader: pg.Client;
let asFull: pg.Client;
let granted: InProcessCliResult;
let key: Buffer;

const hmac = (value: string) => createHmac('sha256', key).update(value.trim().toLowerCase()).digest('hex');

beforeAll(async () => {
  t = await createTestDatabase();
  await t.pool.query(
    `INSERT INTO fulfillment.orders (account_number, order_number, customer_name, creation_date, notification_email,
       gift_message, is_onsite_purchase, is_line_haul, is_editable, is_cancellable, is_back_ordered, has_inventory_hold,
       billings, notes, raw)
     VALUES ('ACC1', $1, $2, now(), $2, $3, false, false, false, false, false, false, $4, $5, $6)`,
    [
      ORDER,
      EMAIL,
      `For ${NAME}`,
      JSON.stringify(raw.billings),
      JSON.stringify(raw.notes),
      JSON.stringify(raw),
    ],
  );
  await t.pool.query(
    `INSERT INTO fulfillment.order_messages (account_number, order_number, message_key, message_type, message, message_time, raw)
     VALUES ('ACC1', $1, 'k1', 'INFO', $2, now(), $3)`,
    [ORDER, `Customer ${EMAIL} called from ${PHONE}`, JSON.stringify({ message: `Customer ${EMAIL}` })],
  );
  await t.pool.query(
    `INSERT INTO fulfillment.order_holds (account_number, order_number, hold_key, hold_name, hold_comment, creation_date, is_directly_releasable)
     VALUES ('ACC1', $1, 'h1', 'ADDRESS_CHECK', $2, now(), true)`,
    [ORDER, `${NAME} moved to ${STREET}`],
  );
  await t.pool.query(
    `INSERT INTO fulfillment.transfer_in_notes (supplier_id, order_number, note_key, type_code, note_text, created_by)
     VALUES ('SUP1', 'IN-1', 'n1', 'DOCK', $1, $2)`,
    [`Driver asked for ${NAME}, ${PHONE}`, EMAIL],
  );
  // A carrier name that looks like a phone: marked safe, read through views that are not masked.
  await t.pool.query(
    `INSERT INTO fulfillment.shipments (container_id, account_number, order_number, ship_date, carrier_name, status_code, raw)
     VALUES ('C-CLOSED-1', 'ACC1', $1, now() - interval '1 day', $2, 'SHIPPED', '{}')`,
    [ORDER, `Courier ${PHONE}`],
  );
  const refreshed = await refreshAllAnalytics(t.pool);
  expect(refreshed.filter((r) => r.status !== 'refreshed')).toEqual([]);
  await applyReaderRole(t.url, full, 'full');
  granted = await runCliInProcess(['grant-reader', reader], { DATABASE_URL: t.url });
  key = (await t.pool.query<{ key: Buffer }>('SELECT key FROM sync.pii_key')).rows[0]!.key;
  asReader = await connectAs(t.pool, t.url, reader);
  asFull = await connectAs(t.pool, t.url, full);
}, 180_000);

afterAll(async () => {
  await asReader?.end().catch(() => {});
  await asFull?.end().catch(() => {});
  for (const role of [reader, full]) {
    await t?.pool.query(`DROP OWNED BY ${quoteIdent(role)}`).catch(() => {});
    await t?.pool.query(`DROP ROLE IF EXISTS ${quoteIdent(role)}`).catch(() => {});
  }
  await t?.close();
});

describe('grant-reader', () => {
  it('withholds the columns it would read as they are where a value looks personal, names them in one line, exits 1', () => {
    expect(granted.code).toBe(1);
    expect(granted.out).toEqual([expect.stringMatching(`^created role "${reader}" \\(NOLOGIN\\) can read `)]);
    expect(granted.err).toHaveLength(1);
    expect(granted.err[0]).toMatch(
      new RegExp(
        `^error: role "${reader}" was not granted \\d+ marked column\\(s\\) whose values look personal \\(`,
      ),
    );
    for (const column of [
      'analytics.carrier_performance_weekly.carrier_name: 1 phone',
      'analytics.shipment_facts.carrier_name: 1 phone',
      'fulfillment.shipment_status.carrier_name: 1 phone',
    ]) {
      expect(granted.err[0]).toContain(column);
    }
    expect(granted.err[0]).toMatch(/and \d+ more/);
  });

  it('grants the rest: the same views without those columns, the masking views whole', async () => {
    const withheld = await asReader
      .query('SELECT customer_name FROM fulfillment.shipment_status')
      .catch((e: { code?: string }) => e.code);
    expect(withheld).toBe('42501');
    const rest = await asReader.query('SELECT container_id, status_code FROM fulfillment.shipment_status');
    expect(rest.rows).toEqual([{ container_id: 'C-CLOSED-1', status_code: 'SHIPPED' }]);
    const masked = await asReader.query('SELECT carrier_name FROM fulfillment_masked.shipments');
    expect(masked.rows).toEqual([{ carrier_name: hmac(`Courier ${PHONE}`) }]);
  });
});

describe('the reader role (FULFILLMENT_READER_ROLE)', () => {
  it('reads none of it in clear, in any relation or column it can select, JSON member names and leaves included', async () => {
    const reach = await findInReach(t.pool, asReader, reader, NEEDLES);
    expect(reach.relations).toBeGreaterThan(30);
    expect(reach.rows).toBeGreaterThan(10);
    expect(reach.found).toEqual([]);
    // The same search finds it all for the full reader: the needles are there to find.
    const clear = await findInReach(t.pool, asFull, full, NEEDLES);
    expect(clear.found.length).toBeGreaterThan(20);
  });

  it('reads the JSON members the spec names as safe, every other one as a keyed hash, at every depth', async () => {
    const { rows } = await asReader.query<{ raw: Record<string, unknown> }>(
      'SELECT raw FROM fulfillment_masked.orders WHERE order_number = $1',
      [ORDER],
    );
    const masked = rows[0]!.raw as typeof raw & Record<string, unknown>;
    expect(masked.header).toEqual({
      accountNumber: 'ACC1',
      orderNumber: ORDER,
      orderStatusCode: 'SHIPPED',
      // Safe by name, but it looks like an e-mail: hashed by the second pass.
      customerName: hmac(EMAIL),
      notificationEmail: hmac(EMAIL),
      recipient: hmac(NAME),
      contact: hmac(EMAIL),
      tel: hmac(PHONE),
      shipToAddress1: hmac(STREET),
      memo: hmac(MEMO),
    });
    expect(masked.billings).toEqual([
      {
        // A number of a member nobody marked is hashed too (a phone may come as a number).
        billTo: {
          name: hmac(NAME),
          attention: hmac(NAME),
          phone: hmac('4155550199'),
          lines: [hmac(STREET), hmac('Springfield')],
        },
        amount: hmac('12.5'),
        description: hmac(`Call ${PHONE}`),
      },
    ]);
    expect(masked.lineItems).toEqual([
      {
        lineNumber: '1',
        sku: 'W1',
        quantityOrdered: 2,
        description: hmac(`Gift, questions to ${EMAIL}`),
        vasOrderPersonalizations: [
          { type: hmac('ENGRAVE'), message: hmac(`For ${NAME}`), options: [{ option: hmac(NAME) }] },
        ],
      },
    ]);
    expect(masked.deliverToConsumers).toEqual([
      {
        firstName: hmac('Jane'),
        lastName: hmac('Quimby'),
        address1: hmac(STREET),
        city: 'Springfield',
        postalCode: '97477',
        extra: { instructions: hmac(MEMO), nested: [{ who: hmac(NAME), since: hmac('2019') }] },
      },
    ]);
    // A member named by an e-mail is renamed to its hash.
    expect(Object.keys(masked)).toContain(hmac(EMAIL));
    expect(Object.keys(masked)).not.toContain(EMAIL);
  });

  it('reads free-text columns as keyed hashes: messages, hold comments, IN notes, gift messages, who wrote them', async () => {
    const read = async (sql: string) => (await asReader.query(sql)).rows;
    expect(await read('SELECT message FROM fulfillment_masked.order_messages')).toEqual([
      { message: hmac(`Customer ${EMAIL} called from ${PHONE}`) },
    ]);
    expect(await read('SELECT hold_comment FROM fulfillment_masked.order_holds')).toEqual([
      { hold_comment: hmac(`${NAME} moved to ${STREET}`) },
    ]);
    expect(await read('SELECT note_text, created_by FROM fulfillment_masked.transfer_in_notes')).toEqual([
      { note_text: hmac(`Driver asked for ${NAME}, ${PHONE}`), created_by: hmac(EMAIL) },
    ]);
    expect(await read('SELECT gift_message, notification_email FROM fulfillment_masked.orders')).toEqual([
      { gift_message: hmac(`For ${NAME}`), notification_email: hmac(EMAIL) },
    ]);
  });
});

describe('fulfillment-sync pii-audit', () => {
  it('finds nothing in clear for the reader: exit 0', async () => {
    const audit = await runCliInProcess(['pii-audit', '--role', reader], { DATABASE_URL: t.url });
    expect(audit.err).toEqual([]);
    expect(audit.code).toBe(0);
    expect(audit.out[0]).toMatch(
      new RegExp(
        `^pii-audit of role "${reader}": \\d+ relations, \\d+ columns it can read; up to 1000 rows each`,
      ),
    );
    expect(audit.out.at(-1)).toBe('no value that looks personal is in clear');
  });

  it('finds, per relation and column, what the full reader reads in clear: exit 1', async () => {
    const audit = await runCliInProcess(['pii-audit', '--role', full, '--json'], { DATABASE_URL: t.url });
    expect(audit.code).toBe(1);
    const report = JSON.parse(audit.out.join('\n')) as {
      total: { email: number; phone: number; street: number };
      relations: Array<{
        relation: string;
        columns: Array<{ column: string; email: number; phone: number; street: number }>;
      }>;
    };
    expect(report.total.email).toBeGreaterThan(0);
    expect(report.total.phone).toBeGreaterThan(0);
    expect(report.total.street).toBeGreaterThan(0);
    const column = (relation: string, name: string) =>
      report.relations.find((r) => r.relation === relation)?.columns.find((c) => c.column === name);
    expect(column('fulfillment.order_messages', 'message')).toEqual({
      column: 'message',
      email: 1,
      phone: 1,
      street: 0,
    });
    // raw: the e-mail as a value (notificationEmail, contact, customerName, createdBy... ) and as a member name.
    expect(column('fulfillment.orders', 'raw')?.email).toBeGreaterThanOrEqual(6);
  });

  it('reads every row with --full, and refuses bad usage with one line and exit 2', async () => {
    const everything = await runCliInProcess(['pii-audit', '--role', reader, '--full'], {
      DATABASE_URL: t.url,
    });
    expect(everything.code).toBe(0);
    expect(everything.out[0]).toMatch(/; every row$/);
    for (const args of [
      ['--rows', '0'],
      ['--rows', 'ten'],
      ['--rows', '5', '--full'],
      ['--role', `nobody_${suffix}`],
    ]) {
      const bad = await runCliInProcess(['pii-audit', ...args], { DATABASE_URL: t.url });
      expect(bad.code, args.join(' ')).toBe(2);
      expect(bad.err, args.join(' ')).toEqual([
        expect.stringMatching(/^error: (option '--(rows|full)|--role)/),
      ]);
    }
  });
});
