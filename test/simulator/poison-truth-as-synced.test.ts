import { describe, expect, it } from 'vitest';
import {
  excludedKeys,
  type PoisonedRecord,
  type PoisonReport,
  repairStrings,
  repairText,
  type SimTruth,
  truthAsSynced,
} from '../../src/simulator/index.ts';

const entry = (over: Partial<PoisonedRecord>): PoisonedRecord => ({
  operation: 'GET Shipments/Updates',
  stream: 'shipments',
  scope: 'ACC100',
  key: 'C1',
  kind: 'nul',
  expected: 'repaired',
  field: 'x',
  inTruth: true,
  from: '2026-03-02T08:00:00.000Z',
  ...over,
});

const report = (records: PoisonedRecord[]): PoisonReport => ({
  scenario: 'poison',
  supplierId: 'SUP100',
  accountNumber: 'ACC100',
  rateLimit: { rate: 0, retryAfterSeconds: 1, message: 'Too many requests', answered: 0 },
  records,
  scheduled: [],
  pending: [],
});

describe('the truth as a correct sync stores it', () => {
  it('removes NUL and replaces lone surrogates only', () => {
    expect(repairText('Arrived\u0000 at facility')).toBe('Arrived at facility');
    expect(repairText('Carrier\ud800A')).toBe('Carrier\ufffdA');
    expect(repairText('x\udc00y\ud800')).toBe('x\ufffdy\ufffd');
    expect(repairText('wine \ud83c\udf77 ok')).toBe('wine \ud83c\udf77 ok');
    expect(repairStrings({ a: ['\u0000'], 'k\ud800': 1, n: 2, z: null })).toEqual({
      a: [''],
      'k\ufffd': 1,
      n: 2,
      z: null,
    });
  });

  it('leaves out quarantined records and details until they heal, and repairs repaired ones', () => {
    const r = report([
      entry({ key: 'C1', kind: 'nul', expected: 'repaired' }),
      entry({ stream: 'invoices', key: 'INV-1', kind: 'int-overflow', expected: 'quarantined' }),
      entry({
        stream: 'transfers_in',
        key: 'SUP100/IN-1',
        kind: 'malformed-detail',
        expected: 'detail-refetch',
        until: '2026-03-04T00:00:00.000Z',
      }),
    ]);
    const before = excludedKeys(r, Date.parse('2026-03-03T23:59:00Z'));
    const after = excludedKeys(r, Date.parse('2026-03-04T00:00:00Z'));
    expect([...before.invoices, ...before.transfers_in, ...before.shipments]).toEqual([
      'INV-1',
      'SUP100/IN-1',
    ]);
    expect([...after.invoices, ...after.transfers_in]).toEqual(['INV-1']);

    const truth = {
      now: '2026-03-05T00:00:00.000Z',
      shipmentUpdates: {
        ACC100: [
          { header: { containerId: 'C1' }, events: [{ description: 'a\u0000b' }] },
          { header: { containerId: 'C2' }, events: [{ description: 'c\u0000d' }] },
        ],
      },
      invoices: { ACC100: [{ invoiceNumber: 'INV-1' }, { invoiceNumber: 'INV-2' }] },
      transfersIn: { SUP100: [{ header: { orderNumber: 'IN-1' } }] },
      productDetails: {},
      ownedProducts: {},
      orderDetails: {},
      ownedInventory: {},
      returns: {},
    } as unknown as SimTruth; // a hand-made truth with only the collections this test reads
    const synced = truthAsSynced(truth, r);
    expect(synced.shipmentUpdates.ACC100?.map((s) => s.events?.[0]?.description)).toEqual(['ab', 'c\u0000d']);
    expect(synced.invoices.ACC100?.map((i) => i.invoiceNumber)).toEqual(['INV-2']);
    expect(synced.transfersIn.SUP100).toHaveLength(1);
    // The truth itself is untouched.
    expect(truth.invoices.ACC100).toHaveLength(2);
  });
});
