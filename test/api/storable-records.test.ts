import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import {
  type FulfillmentClient,
  MAX_RECORD_DEPTH,
  RetryableUpstreamError,
  type UpstreamError,
} from '../../src/api/index.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';
import { ok, type RecordingServer, startRecordingServer } from './helpers/recordingServer.ts';
import { testClient } from './helpers/testClient.ts';

/**
 * Values Postgres cannot store (NUL, lone surrogates, integers beyond their column, absurd nesting)
 * are dealt with at the client: text is repaired and the record lands, the rest is rejected with a
 * reason, and whatever the engine will store (`raw`) is accepted by Postgres.
 */

let server: RecordingServer;
let client: FulfillmentClient;
let db: pg.Client;

beforeAll(async () => {
  server = await startRecordingServer();
  client = testClient(server.url);
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
});
afterAll(async () => {
  await db.end();
  await server.close();
});
beforeEach(() => server.reset());

/** Postgres's verdict: the value as jsonb (what sync.rejected_records.raw and `raw` columns hold). */
async function storedAsJsonb(value: unknown): Promise<unknown> {
  const result = await db.query('SELECT $1::jsonb AS v', [JSON.stringify(value)]);
  return result.rows[0].v;
}

const updates = () =>
  client.listShipmentUpdates({
    accountNumber: 'AC',
    beginDate: '2026-06-01T00:00',
    endDate: '2026-06-01T06:00',
  });

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return error as UpstreamError;
}

describe('text Postgres cannot store is repaired, and the record lands', () => {
  it('a NUL in a nested text is removed and the repair is reported with its path', async () => {
    const poisoned = {
      header: shipmentHeader('C1'),
      events: [{ eventTime: '2026-06-01T01:00:00', description: 'Arrived\u0000 at hub' }],
    };
    server.reply(ok([{ header: shipmentHeader('C0') }, poisoned]));
    const result = await updates();
    expect(result.rejected).toEqual([]);
    expect(result.records.map((r) => r.header.containerId)).toEqual(['C0', 'C1']);
    expect(result.records[1]?.events?.[0]?.description).toBe('Arrived at hub');
    expect(result.repaired).toEqual([
      { index: 1, reason: 'NUL removed from events.0.description', raw: result.records[1] },
    ]);
    expect(await storedAsJsonb(result.repaired[0]?.raw)).toEqual(result.records[1]);
  });

  it('a lone surrogate is replaced by U+FFFD; a real surrogate pair (an emoji) is kept', async () => {
    const header = { ...shipmentHeader('C2'), carrierName: 'Carrier\uD800X', statusDescription: 'ok 🍷' };
    server.reply(ok([{ header }]));
    const result = await updates();
    expect(result.records[0]?.header.carrierName).toBe('Carrier\uFFFDX');
    expect(result.records[0]?.header.statusDescription).toBe('ok 🍷');
    expect(result.repaired.map((r) => r.reason)).toEqual(['lone surrogate replaced in header.carrierName']);
    expect(await storedAsJsonb(result.repaired[0]?.raw)).toEqual(result.records[0]);
  });

  it('a NUL in an object key is removed from the key, and both kinds of repair are named', async () => {
    const header = { ...shipmentHeader('C3'), 'carrier\u0000Note': 'fragile', trackingNumber: 'T\uDC00' };
    server.reply(ok([{ header }]));
    const result = await updates();
    const stored = result.records[0]?.header as Record<string, unknown>;
    expect(stored.carrierNote).toBe('fragile');
    expect(Object.keys(stored).some((key) => key.includes('\u0000'))).toBe(false);
    expect(result.repaired[0]?.reason).toBe(
      'NUL removed from header.carrierNote (key); lone surrogate replaced in header.trackingNumber',
    );
    await storedAsJsonb(result.repaired[0]?.raw);
  });

  it('a rejected record with a NUL is stored repaired, its reason naming the repair too', async () => {
    server.reply(ok([{ header: { ...shipmentHeader('C4'), containerId: 42, carrierName: 'A\u0000' } }]));
    const result = await updates();
    expect(result.records).toEqual([]);
    expect(result.repaired).toEqual([]);
    expect(result.rejected[0]?.reason).toMatch(
      /^header\.containerId: .+; NUL removed from header\.carrierName$/,
    );
    expect(await storedAsJsonb(result.rejected[0]?.raw)).toMatchObject({ header: { carrierName: 'A' } });
  });
});

describe('values no column can hold are rejected', () => {
  it('3,000,000,000 for an int32 quantity is a rejected record with a clear reason', async () => {
    server.reply(
      ok([
        { sku: 'A', qtyOnHand: 5 },
        { sku: 'B', qtyOnHand: 3_000_000_000 },
        { sku: 'C', qtyAvailableToSell: -2_147_483_649 },
        { sku: 'D', qtyOnHand: 2_147_483_647, qtyAvailableToSell: -2_147_483_648 },
      ]),
    );
    const result = await client.listOwnedInventory({ supplierId: 'S1' });
    expect(result.records.map((r) => r.sku)).toEqual(['A', 'D']);
    expect(result.rejected.map((r) => [r.index, r.reason])).toEqual([
      [1, 'qtyOnHand: outside the range of its integer column (-2147483648..2147483647)'],
      [2, 'qtyAvailableToSell: outside the range of its integer column (-2147483648..2147483647)'],
    ]);
  });

  it('an id stored in a bigint column may exceed int32, up to the safe-integer range', async () => {
    server.reply(ok([{ shipReturnId: 3_000_000_000, shipmentKey: 2 ** 53 }]));
    const result = await client.listReturns({ accountNumber: 'AC' });
    expect(result.records).toEqual([]);
    expect(result.rejected[0]?.reason).toMatch(/^shipmentKey: /);
    server.reply(ok([{ shipReturnId: 3_000_000_000, shipmentKey: 4_000_000_000 }]));
    expect((await client.listReturns({ accountNumber: 'AC' })).records).toHaveLength(1);
  });

  it('a number beyond a double (1e400 parses to Infinity) is a rejected record', async () => {
    server.reply({ rawBody: '{"isSuccess":true,"payload":[{"sku":"A","qtyOnHand":1e400},{"sku":"B"}]}' });
    const result = await client.listOwnedInventory({ supplierId: 'S1' });
    expect(result.records.map((r) => r.sku)).toEqual(['B']);
    expect(result.rejected[0]?.reason).toMatch(/^qtyOnHand: .*Infinity/);
    await storedAsJsonb(result.rejected[0]?.raw);
  });

  it(`a record nested 8,000 levels deep is refused unparsed, kept as a small storable summary; its siblings land`, async () => {
    const deep = `${'['.repeat(8000)}"bottom\\u0000"${']'.repeat(8000)}`;
    server.reply({
      rawBody: `{"isSuccess":true,"payload":[{"invoiceNumber":"I1"},{"invoiceNumber":"I2","memo":${deep}}]}`,
    });
    const result = await client.listInvoices({});
    expect(result.records.map((r) => r.invoiceNumber)).toEqual(['I1']);
    expect(result.rejected).toHaveLength(1);
    const [rejected] = result.rejected;
    expect(rejected?.index).toBe(1);
    expect(rejected?.reason).toBe(`nested deeper than ${MAX_RECORD_DEPTH} levels: refused without parsing`);
    const raw = rejected?.raw as { unstorable: string; preview: string };
    expect(raw.unstorable).toBe(`nested deeper than ${MAX_RECORD_DEPTH} levels`);
    expect(raw.preview.startsWith('{"invoiceNumber":"I2","memo":[[[')).toBe(true);
    expect(raw.preview.length).toBeLessThanOrEqual(500);
    expect(await storedAsJsonb(raw)).toEqual(raw);
  });

  it('a detail nested too deep is rejected the same way; record null', async () => {
    const deep = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
    server.reply({ rawBody: `{"isSuccess":true,"payload":{"header":${deep}}}` });
    const result = await client.getOrderDetail('AC', 'O1');
    expect(result.record).toBeNull();
    expect(result.rejected[0]?.reason).toMatch(/^nested deeper than 32 levels/);
  });
});

describe('a list answer without a list', () => {
  it.each([
    ['null', { isSuccess: true, message: null, payload: null }],
    ['missing', { isSuccess: true, message: null }],
  ])('a %s payload fails the call as retryable, never an empty list', async (what, body) => {
    server.reply({ body });
    const error = await failure(client.listOwnedInventory({ supplierId: 'S1', warehouseCode: 'W1' }));
    expect(error).toBeInstanceOf(RetryableUpstreamError);
    expect(error.kind).toBe('invalid-payload');
    expect(error.message).toContain(`payload is ${what}`);
  });

  it('a null detail payload is still "not found"', async () => {
    server.reply(ok(null));
    expect(await client.getOrderDetail('AC', 'O2')).toEqual({ record: null, rejected: [], repaired: [] });
  });
});
