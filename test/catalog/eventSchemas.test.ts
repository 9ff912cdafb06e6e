import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_SCHEMA_DIR } from '../../src/catalog/eventSchemas.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { EVENT_COLUMNS, type EventRow, eventFromRow } from '../../src/events/eventRow.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { type DerivedEvent, EVENT_TYPES } from '../../src/events/types.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { allStreams, type RegisteredStream } from '../../src/streams/index.ts';
import { requestOrderDetails } from '../../src/streams/orderRequests.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { runStream } from '../../src/sync/runStream.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { simulatorClient } from '../helpers/syncHarness.ts';

/**
 * Every event a simulated week stores (sync.events, as sent to webhooks) matches the published
 * JSON Schema of its type (schemas/events/<type>.json), whose data.current / data.previous are
 * typed from the record schemas. The schemas are read from disk: what subscribers download.
 */

// ajv-formats is CommonJS; its plugin is also exported as `default`, which both TS and Node see.
const addFormats = addFormatsModule.default;

const logger = pino({ level: 'silent' });
const START = new Date('2026-03-02T08:00:00Z');
const HISTORY_DAYS = 3;
const LIVE_DAYS = 4;
const STEP_HOURS = 12;

let t: TestDatabase;
let sim: RunningSimulator;
let config: Config;
let events: DerivedEvent[] = [];

/** One sync of every stream and scope at the simulator's now, events derived. */
async function syncAll(): Promise<void> {
  const client = simulatorClient(sim, config);
  const eventSink = createEventSink({
    timezone: config.timezone,
    thresholds: config.events,
  });
  const now = new Date(sim.clock.now());
  const world = sim.truth();
  const run = async (stream: RegisteredStream, id: string) => {
    const scope = { kind: stream.scopeKind, id };
    const result = await runStream({
      pool: t.pool,
      client,
      config,
      logger,
      stream,
      scope,
      now,
      eventSink,
    });
    if (result.status !== 'succeeded')
      throw new Error(`${stream.name} ${id}: ${result.status} ${result.error}`);
  };
  for (const stream of allStreams()) {
    for (const id of stream.scopeKind === 'supplier' ? world.suppliers : world.accounts)
      await run(stream, id);
  }
  // Orders are read when a shipment or return names them, which a held order has not done yet: a
  // user asks for the orders with holds, so holds come and go.
  for (const [account, orders] of Object.entries(world.orderDetails)) {
    const held = orders.filter((o) => (o.holds ?? []).length > 0).map((o) => o.header.orderNumber ?? '');
    if (held.length === 0) continue;
    await requestOrderDetails(t.pool, account, held, 'user');
    await run(ordersStream, account);
  }
}

/** A validator per event type, compiled from the committed schema files. */
function compileSchemas(read = readSchema): Map<string, ValidateFunction> {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
  addFormats(ajv);
  return new Map(EVENT_TYPES.map((type) => [type, ajv.compile(read(type))]));
}

function readSchema(type: string): object {
  return JSON.parse(readFileSync(path.join(EVENT_SCHEMA_DIR, `${type}.json`), 'utf8')) as object;
}

/** The events that fail their type's schema, each with its first errors. */
function invalidEvents(validators: Map<string, ValidateFunction>, list: readonly DerivedEvent[]): string[] {
  const invalid: string[] = [];
  for (const event of list) {
    const validate = validators.get(event.type);
    if (!validate) {
      invalid.push(`${event.id} ${event.type}: no schema`);
      continue;
    }
    if (!validate(JSON.parse(JSON.stringify(event)))) {
      const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath} ${e.message}`);
      invalid.push(`${event.id} ${event.type}: ${errors.join('; ')}`);
    }
  }
  return invalid;
}

beforeAll(async () => {
  t = await createTestDatabase();
  sim = await startSimulator({
    seed: 7,
    clock: 'manual',
    start: START,
    volume: { historyDays: HISTORY_DAYS, suppliers: 1, winesPerSupplier: 8 },
  });
  config = loadConfig({
    DATABASE_URL: t.url,
    FULFILLMENT_SYNC_START: new Date(START.getTime() - (HISTORY_DAYS + 1) * 86_400_000).toISOString(),
  });
  for (let hour = 0; hour <= LIVE_DAYS * 24; hour += STEP_HOURS) {
    if (hour > 0) sim.advance(STEP_HOURS * 60);
    await syncAll();
  }
  // Orders named by the last shipments and returns are fetched on the next run.
  await syncAll();
  const { rows } = await t.pool.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM sync.events ORDER BY seq`);
  events = rows.map(eventFromRow);
}, 600_000);
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

describe('the published event schemas (schemas/events)', () => {
  it('validate every event a simulated week stored', () => {
    expect(events.length).toBeGreaterThan(500);
    expect(invalidEvents(compileSchemas(), events)).toEqual([]);
  });

  it('were exercised by every event type in that week', () => {
    const seen = new Set(events.map((e) => e.type));
    expect(EVENT_TYPES.filter((type) => !seen.has(type))).toEqual([]);
  });

  it('reject those events when data.current is typed as another record', () => {
    const validators = compileSchemas((type) => {
      const schema = readSchema(type) as { $defs: Record<string, unknown> };
      const invoice = readSchema('invoice.created') as { $defs: { Invoice: unknown } };
      // Every record's definition replaced by the invoice's: shipments, orders, ... no longer fit.
      for (const name of Object.keys(schema.$defs)) schema.$defs[name] = invoice.$defs.Invoice;
      return schema;
    });
    const shipments = events.filter((e) => e.type === 'shipment.created').slice(0, 20);
    expect(shipments.length).toBeGreaterThan(0);
    expect(invalidEvents(validators, shipments)).toHaveLength(shipments.length);
  });
});
