import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventSink, isHistory } from '../../src/events/sink.ts';
import type { EventPolicy } from '../../src/sync/types.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

const thresholds = { lowStockThreshold: 10, lowStockThresholdsBySku: {} };
const invoice = (invoiceNumber: string, balanceDue: number, invoiceDate = '2026-03-01') => ({
  invoiceNumber,
  accountNumber: 'ACC1',
  invoiceDate,
  totalInvoiceAmount: 100,
  balanceDue,
});
const LIVE: EventPolicy = { initialLoad: false, historyBefore: undefined, deliverHistory: false };
const INITIAL: EventPolicy = { initialLoad: true, historyBefore: undefined, deliverHistory: false };

async function sink(policy: EventPolicy, records: unknown[], previous?: unknown) {
  const client = await t.pool.connect();
  try {
    await client.query('BEGIN');
    const written = await createEventSink({ timezone: 'UTC', thresholds })({
      tx: client,
      runId: 1,
      stream: 'invoices',
      scope: { kind: 'account', id: 'ACC1' },
      subjectKind: 'invoice',
      changes: records.map((current) => ({
        kind: previous ? ('updated' as const) : ('inserted' as const),
        current,
        previous: previous ?? null,
      })),
      detectedAt: new Date('2026-03-02T00:00:00Z'),
      policy,
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
  it('stores an initial load as history unless asked to deliver it', async () => {
    expect(await sink(INITIAL, [invoice('I-1', 100)])).toBe(1);
    expect(await sink(LIVE, [invoice('I-2', 100)])).toBe(1);
    expect(await sink({ ...INITIAL, deliverHistory: true }, [invoice('I-3', 100)])).toBe(1);
    expect(await suppressedOf('I-1')).toEqual([true]);
    expect(await suppressedOf('I-2')).toEqual([false]);
    expect(await suppressedOf('I-3')).toEqual([false]);
  });

  it('after the initial load, a change to a stored record is live whatever run finds it, and a record first seen with an older time is history', async () => {
    const policy: EventPolicy = {
      initialLoad: false,
      historyBefore: new Date('2026-02-01T00:00:00Z'),
      deliverHistory: false,
    };
    // Paid since the incremental sync last read it: delivered, as the incremental sync would have.
    expect(await sink(policy, [invoice('I-6', 0)], invoice('I-6', 100))).toBe(2);
    expect(await suppressedOf('I-6')).toEqual([false, false]);
    // First seen by a backfill of older months: history.
    expect(await sink(policy, [invoice('I-7', 100, '2026-01-10')])).toBe(1);
    expect(await suppressedOf('I-7')).toEqual([true]);
    // First seen, but newer than what the initial load read: live.
    expect(await sink(policy, [invoice('I-8', 100, '2026-02-20')])).toBe(1);
    expect(await suppressedOf('I-8')).toEqual([false]);
  });

  it('decides history from the change alone', () => {
    const policy = {
      initialLoad: false,
      historyBefore: new Date('2026-02-01T00:00:00Z'),
      deliverHistory: false,
    };
    const old = { occurredAt: '2026-01-01T00:00:00.000Z' };
    expect(isHistory(old, 'inserted', policy)).toBe(true);
    expect(isHistory(old, 'updated', policy)).toBe(false);
    expect(isHistory(old, 'inserted', { ...policy, deliverHistory: true })).toBe(false);
    expect(isHistory({ occurredAt: '2026-03-01T00:00:00.000Z' }, 'inserted', policy)).toBe(false);
    expect(
      isHistory({ occurredAt: '2026-03-01T00:00:00.000Z' }, 'updated', { ...policy, initialLoad: true }),
    ).toBe(true);
  });

  it('derives from the stored record and counts only newly stored events', async () => {
    expect(await sink(LIVE, [invoice('I-5', 0)], invoice('I-5', 100))).toBe(2);
    expect(await sink(LIVE, [invoice('I-5', 0)], invoice('I-5', 100))).toBe(0);
    expect(await sink(LIVE, [invoice('I-5', 0)], invoice('I-5', 0))).toBe(0);
  });

  it('refuses an unknown subject kind with a message naming the valid ones', async () => {
    const client = await t.pool.connect();
    try {
      const run = createEventSink({ timezone: 'UTC', thresholds });
      await expect(
        run({
          tx: client,
          runId: 1,
          stream: 'products',
          scope: { kind: 'supplier', id: 'S' },
          subjectKind: 'product',
          changes: [],
          detectedAt: new Date(),
          policy: LIVE,
        }),
      ).rejects.toThrow(/shipment, order/);
    } finally {
      client.release();
    }
  });
});
