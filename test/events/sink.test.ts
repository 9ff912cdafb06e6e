import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventSink, type EventSinkOptions } from '../../src/events/sink.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

const thresholds = { lowStockThreshold: 10, lowStockThresholdsBySku: {} };
const invoice = (invoiceNumber: string, balanceDue: number) => ({
  invoiceNumber,
  accountNumber: 'ACC1',
  invoiceDate: '2026-03-01',
  totalInvoiceAmount: 100,
  balanceDue,
});

async function sink(
  options: Partial<EventSinkOptions>,
  initialLoad: boolean,
  records: unknown[],
  previous?: unknown,
) {
  const client = await t.pool.connect();
  try {
    await client.query('BEGIN');
    const written = await createEventSink({
      timezone: 'UTC',
      thresholds,
      deliverInitialLoadEvents: false,
      ...options,
    })({
      tx: client,
      stream: 'invoices',
      scope: { kind: 'account', id: 'ACC1' },
      subjectKind: 'invoice',
      changes: records.map((record) => ({
        record,
        row: {},
        previousRow: previous ? { raw: previous } : undefined,
      })),
      detectedAt: new Date('2026-03-02T00:00:00Z'),
      initialLoad,
    });
    await client.query('COMMIT');
    return written;
  } finally {
    client.release();
  }
}

async function suppressedOf(key: string): Promise<boolean[]> {
  const { rows } = await t.pool.query(
    'SELECT suppressed FROM sync.events WHERE subject_key = $1 ORDER BY seq',
    [key],
  );
  return rows.map((r) => r.suppressed as boolean);
}

describe('event sink', () => {
  it('suppresses first-load and backfill events unless asked to deliver them', async () => {
    expect(await sink({}, true, [invoice('I-1', 100)])).toBe(1);
    expect(await sink({}, false, [invoice('I-2', 100)])).toBe(1);
    expect(await sink({ emitEvents: true }, true, [invoice('I-3', 100)])).toBe(1);
    expect(await sink({ deliverInitialLoadEvents: true }, true, [invoice('I-4', 100)])).toBe(1);
    expect(await suppressedOf('I-1')).toEqual([true]);
    expect(await suppressedOf('I-2')).toEqual([false]);
    expect(await suppressedOf('I-3')).toEqual([false]);
    expect(await suppressedOf('I-4')).toEqual([false]);
  });

  it('derives from the stored raw record and counts only newly stored events', async () => {
    expect(await sink({}, false, [invoice('I-5', 0)], invoice('I-5', 100))).toBe(2);
    expect(await sink({}, false, [invoice('I-5', 0)], invoice('I-5', 100))).toBe(0);
    expect(await sink({}, false, [invoice('I-5', 0)], invoice('I-5', 0))).toBe(0);
  });

  it('refuses an unknown subject kind with a message naming the valid ones', async () => {
    const client = await t.pool.connect();
    try {
      const run = createEventSink({ timezone: 'UTC', thresholds, deliverInitialLoadEvents: false });
      await expect(
        run({
          tx: client,
          stream: 'products',
          scope: { kind: 'supplier', id: 'S' },
          subjectKind: 'product',
          changes: [],
          detectedAt: new Date(),
          initialLoad: false,
        }),
      ).rejects.toThrow(/shipment, order/);
    } finally {
      client.release();
    }
  });
});
