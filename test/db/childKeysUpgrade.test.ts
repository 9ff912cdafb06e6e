import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { OrderDetail, ShipmentUpdate } from '../../src/api/records/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { MIGRATIONS_FOLDER, runMigrations } from '../../src/db/migrate.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { trackingEventKey } from '../../src/events/trackingEventKey.ts';
import { holdKey, messageKey, noteKey } from '../../src/streams/childKeys.ts';
import { contentKey } from '../../src/streams/contentKey.ts';
import { requestOrderDetails } from '../../src/streams/orderRequests.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { StreamDefinition } from '../../src/sync/types.ts';
import { freshDatabaseUrl } from '../helpers/db.ts';
import { orderHeader } from '../helpers/orderRecords.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';

/**
 * Upgrading a warehouse whose id-less child rows (order holds and messages, IN notes, tracking
 * events) were keyed by their members as sent: the migration re-keys every row by what it says, as
 * the sync now does (childKeys.ts, trackingEventKey.ts), and merges the rows of one record stored
 * under several spellings into one, the newest. No row of a distinct record is lost, the keys agree
 * with the sync's to the byte (quotes, backslashes, accents, control characters), and a later sync
 * of the same records in either spelling rewrites no child row and announces nothing twice.
 */

const logger = pino({ level: 'silent' });
const target = freshDatabaseUrl();
const folder = mkdtempSync(path.join(tmpdir(), 'fs-migrations-'));
const config = loadConfig({ DATABASE_URL: target.url });
const clock = { timezone: config.timezone };
let pool: pg.Pool;

/** A copy of the migrations that stops before the first one whose name holds `tagPart`. */
function migrationsBefore(tagPart: string): string {
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: Array<{ tag: string }> };
  const cut = journal.entries.findIndex((e) => e.tag.includes(tagPart));
  expect(cut, `a migration named *${tagPart}*`).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalFile, JSON.stringify(journal));
  return folder;
}

// June in America/Los_Angeles is UTC-7: spelling B is spelling A's instant in UTC.
const TRICKY = 'Say "hi" \\ to Zoë\u0001 — ok\u2028';
const detail = (spelling: 'A' | 'B', status: string): OrderDetail => ({
  header: orderHeader('O1', { orderStatusCode: status, hasInventoryHold: true }),
  holds: [
    {
      holdName: spelling === 'A' ? 'CREDIT' : 'credit ',
      creationDate: spelling === 'A' ? '2026-06-01T11:00:00' : '2026-06-01T18:00:00Z',
      isDirectlyReleasable: true,
    },
  ],
  messages: [
    {
      messageType: 'INFO',
      message: 'Left at the door',
      messageTime: spelling === 'A' ? '2026-06-01T12:00:00' : '2026-06-01T19:00:00.000Z',
    },
    { messageType: 'note', message: TRICKY, messageTime: '2026-06-01T13:00:00' },
  ],
});
const shipment = (spelling: 'A' | 'B', status: string): ShipmentUpdate => ({
  // The shipment of order O1: the order it names for the orders stream is the same one.
  header: { ...shipmentHeader('C1', status), orderNumber: 'O1' },
  events: [
    {
      eventTime: spelling === 'A' ? '2026-06-01T09:00:00' : '2026-06-01T16:00:00Z',
      city: spelling === 'A' ? 'Napa' : 'NAPA',
      stateOrProvince: 'CA',
      description: 'Picked up',
    },
  ],
});

let order = detail('A', 'SHIPPED');
let update = shipment('A', 'IN_TRANSIT');
const client = {
  getOrderDetail: async () => ({ record: structuredClone(order), rejected: [] }),
  listShipmentUpdates: async () => ({ records: [structuredClone(update)], rejected: [] }),
} as unknown as FulfillmentClient;

// biome-ignore lint/suspicious/noExplicitAny: each stream has its own record type.
async function run(stream: StreamDefinition<any, any>, scope: string) {
  if (stream === ordersStream) await requestOrderDetails(pool, scope, ['O1'], 'user');
  return runStream({
    pool,
    client,
    config,
    logger,
    stream,
    scope: { kind: stream.scopeKind, id: scope },
    now: new Date('2026-06-02T18:00:00Z'),
    eventSink: createEventSink({ timezone: config.timezone, thresholds: config.events }),
  });
}

async function all(table: string, key: string): Promise<Array<Record<string, unknown>>> {
  return (await pool.query(`SELECT * FROM fulfillment.${table} ORDER BY ${key}`)).rows;
}

beforeAll(async () => {
  await runMigrations(target.url, { migrationsFolder: migrationsBefore('child_keys_from_meaning') });
  pool = new pg.Pool({ connectionString: target.url, max: 3 });
  // Today's sync stamps a cursor column a later migration adds (0044, IF NOT EXISTS); a worker of
  // that time stored the same child rows without it.
  await pool.query('ALTER TABLE sync.cursors ADD COLUMN last_polled_at timestamptz');
  // What the sync stored before the upgrade: an order and a shipment in spelling A, their child
  // rows keyed (as the old code keyed them) by a hash of the members as sent.
  expect(await run(ordersStream, 'ACC1')).toMatchObject({ status: 'succeeded', inserted: 1 });
  expect(await run(shipmentsStream, 'ACC1')).toMatchObject({ status: 'succeeded', inserted: 1 });
  await pool.query(`UPDATE fulfillment.order_holds SET hold_key = $1`, [
    contentKey(['CREDIT', '2026-06-01T11:00:00']),
  ]);
  await pool.query(`UPDATE fulfillment.order_messages SET message_key = $1 WHERE message_type = 'INFO'`, [
    contentKey(['2026-06-01T12:00:00', 'INFO', 'Left at the door']),
  ]);
  await pool.query(`UPDATE fulfillment.order_messages SET message_key = $1 WHERE message_type = 'note'`, [
    contentKey(['2026-06-01T13:00:00', 'note', TRICKY]),
  ]);
  await pool.query(`UPDATE fulfillment.shipment_events SET event_key = $1`, [
    contentKey(['2026-06-01T09:00:00', 'Napa', 'CA', 'Picked up']),
  ]);
  // The same records stored again under their spelling-B keys, later and with newer content; and
  // IN notes: one note twice, another once.
  await pool.query(
    `INSERT INTO fulfillment.order_holds (account_number, order_number, hold_key, hold_name, hold_comment,
       creation_date, is_directly_releasable, synced_at, raw)
     VALUES ('ACC1', 'O1', $1, 'credit ', 'newest', '2026-06-01T18:00:00Z', true, '2026-06-03T00:00:00Z', '{}')`,
    [contentKey(['credit ', '2026-06-01T18:00:00Z'])],
  );
  await pool.query(
    `INSERT INTO fulfillment.order_messages (account_number, order_number, message_key, message_type, message,
       message_time, synced_at, raw)
     VALUES ('ACC1', 'O1', $1, 'INFO', 'Left at the door', '2026-06-01T19:00:00Z', '2000-01-01T00:00:00Z', '{"old": true}')`,
    [contentKey(['2026-06-01T19:00:00.000Z', 'INFO', 'Left at the door'])],
  );
  await pool.query(
    `INSERT INTO fulfillment.shipment_events (container_id, event_key, event_time, city, state_or_province,
       description, synced_at, raw)
     VALUES ('C1', $1, '2026-06-01T16:00:00Z', 'NAPA', 'CA', 'Picked up', '2026-06-03T00:00:00Z', '{"newest": true}')`,
    [contentKey(['2026-06-01T16:00:00Z', 'NAPA', 'CA', 'Picked up'])],
  );
  await pool.query(
    `INSERT INTO fulfillment.transfer_in_notes (supplier_id, order_number, note_key, type_code, note_timestamp,
       note_text, synced_at, raw) VALUES
     ('SUP1', 'IN-1', 'k1', 'INFO', '2026-06-01T17:00:00Z', 'Dock 4', '2026-06-02T00:00:00Z', '{"n": 1}'),
     ('SUP1', 'IN-1', 'k2', 'info', '2026-06-01T17:00:00Z', ' Dock  4', '2026-06-03T00:00:00Z', '{"n": 2}'),
     ('SUP1', 'IN-1', 'k3', 'INFO', '2026-06-01T17:00:00Z', 'Dock 5', '2026-06-01T00:00:00Z', '{"n": 3}')`,
  );
  const result = await runMigrations(target.url);
  expect(result.applied).toBeGreaterThanOrEqual(1);
});
afterAll(async () => {
  await pool?.end();
  rmSync(folder, { recursive: true, force: true });
  await target.drop();
});

describe('upgrading to child keys from meaning', () => {
  it('merges the rows of one record into the newest, under the key the sync now gives it', async () => {
    const holds = await all('order_holds', 'hold_key');
    expect(holds).toHaveLength(1);
    expect(holds[0]).toMatchObject({ hold_comment: 'newest' });
    expect(holds[0]?.hold_key).toBe(holdKey(detail('A', 'SHIPPED').holds?.[0] as never, clock));

    const events = await all('shipment_events', 'event_key');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ raw: { newest: true } });
    expect(events[0]?.event_key).toBe(
      trackingEventKey(shipment('A', 'IN_TRANSIT').events?.[0] as never, clock),
    );
  });

  it("keeps every distinct record, its key equal to the sync's to the byte", async () => {
    const messages = await all('order_messages', 'message_type');
    expect(messages.map((m) => m.message_type)).toEqual(['INFO', 'note']);
    // The newest of the two INFO rows is the one the sync wrote (synced 2026-06-02), not the older one.
    expect(messages[0]?.raw).not.toEqual({ old: true });
    const [info, tricky] = detail('A', 'SHIPPED').messages ?? [];
    expect(messages.map((m) => m.message_key)).toEqual([
      messageKey(info as never, clock),
      messageKey(tricky as never, clock),
    ]);
    expect(messages[1]?.message).toBe(TRICKY);

    const notes = await all('transfer_in_notes', 'note_text');
    expect(notes.map((n) => [n.note_text, n.raw])).toEqual([
      [' Dock  4', { n: 2 }],
      ['Dock 5', { n: 3 }],
    ]);
    const note = (text: string) => ({
      typeCode: 'INFO',
      noteTimestamp: '2026-06-01T10:00:00',
      noteText: text,
    });
    expect(notes.map((n) => n.note_key)).toEqual([
      noteKey(note('Dock 4'), clock),
      noteKey(note('Dock 5'), clock),
    ]);
  });

  it('a later sync in the other spelling rewrites no child row and announces only what changed', async () => {
    const before = {
      holds: await all('order_holds', 'hold_key'),
      messages: await all('order_messages', 'message_key'),
      events: await all('shipment_events', 'event_key'),
    };
    order = detail('B', 'DELIVERED');
    const ordered = await run(ordersStream, 'ACC1');
    expect(ordered).toMatchObject({ status: 'succeeded', updated: 1 });
    update = shipment('B', 'DELIVERED');
    const shipped = await run(shipmentsStream, 'ACC1');
    expect(shipped).toMatchObject({ status: 'succeeded', updated: 1 });
    const keys = (rows: Array<Record<string, unknown>>, key: string) => rows.map((r) => r[key]);
    expect(keys(await all('order_holds', 'hold_key'), 'hold_key')).toEqual(keys(before.holds, 'hold_key'));
    expect(keys(await all('order_messages', 'message_key'), 'message_key')).toEqual(
      keys(before.messages, 'message_key'),
    );
    expect(keys(await all('shipment_events', 'event_key'), 'event_key')).toEqual(
      keys(before.events, 'event_key'),
    );
    const announced = await pool.query<{ type: string }>(
      'SELECT type FROM sync.events WHERE run_id = ANY($1) ORDER BY type',
      [[ordered.lastRunId, shipped.lastRunId]],
    );
    expect(announced.rows.map((r) => r.type)).toEqual([
      'order.status_changed',
      'shipment.delivered',
      'shipment.status_changed',
    ]);
  });
});
