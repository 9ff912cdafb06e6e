import { describe, expect, it } from 'vitest';
import type { TransferInDetail } from '../../api/records/index.ts';
import { deriveEvents } from '../derive.ts';
import { testContext } from '../testContext.ts';

const ctx = testContext();
const transferIn = (statusCode: string, received: [number, number] = [0, 0]): TransferInDetail => ({
  header: { supplierId: 'SUP1', orderNumber: 'IN-1', statusCode, creationDate: '2026-02-10T09:00:00Z' },
  lineItems: received.map((qtyReceived, index) => ({
    lineNumber: index + 1,
    sku: `S${index}`,
    qtyOrdered: 12,
    qtyReceived,
    lastUpdateDate: `2026-03-0${index + 1}T10:00:00Z`,
  })),
  notes: [],
});
const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('transfer_in rule', () => {
  it('emits created when first seen', () => {
    const events = deriveEvents('transfer_in', null, transferIn('SUBMITTED'), ctx);
    expect(types(events)).toEqual(['transfer_in.created']);
    expect(events[0]?.subject.key).toBe('SUP1:IN-1');
    expect(events[0]?.occurredAt).toBe('2026-02-10T09:00:00.000Z');
  });

  it('emits created and received when first seen already (partly) received', () => {
    expect(types(deriveEvents('transfer_in', null, transferIn('CLOSED', [12, 0]), ctx))).toEqual([
      'transfer_in.created',
      'transfer_in.received',
    ]);
  });

  it('emits nothing for an unchanged record', () => {
    expect(
      deriveEvents('transfer_in', transferIn('PROCESSING', [3, 0]), transferIn('PROCESSING', [3, 0]), ctx),
    ).toEqual([]);
  });

  it('emits status_changed and received with the lines whose qtyReceived rose', () => {
    const events = deriveEvents(
      'transfer_in',
      transferIn('PROCESSING', [3, 0]),
      transferIn('CLOSED', [12, 5]),
      ctx,
    );
    expect(types(events)).toEqual(['transfer_in.status_changed', 'transfer_in.received']);
    expect(events[1]?.data.changes).toEqual([
      { field: 'lineItems[1].qtyReceived', from: 3, to: 12 },
      { field: 'lineItems[2].qtyReceived', from: 0, to: 5 },
    ]);
    expect(events[1]?.occurredAt).toBe('2026-03-02T10:00:00.000Z');
  });

  it('gives each receipt step its own id', () => {
    const first = deriveEvents(
      'transfer_in',
      transferIn('PROCESSING'),
      transferIn('PROCESSING', [3, 0]),
      ctx,
    );
    const second = deriveEvents(
      'transfer_in',
      transferIn('PROCESSING', [3, 0]),
      transferIn('PROCESSING', [6, 0]),
      ctx,
    );
    expect(first[0]?.id).not.toBe(second[0]?.id);
  });

  it('names a repeated status change by the header lastUpdateDate, else by detectedAt', () => {
    const at = (statusCode: string, lastUpdateDate: string | null): TransferInDetail => {
      const record = transferIn(statusCode);
      return { ...record, header: { ...record.header, lastUpdateDate } };
    };
    const first = deriveEvents(
      'transfer_in',
      at('OPEN', '2026-03-01T10:00:00Z'),
      at('HOLD', '2026-03-02T10:00:00Z'),
      ctx,
    );
    expect(first.map((e) => e.type)).toEqual(['transfer_in.status_changed']);
    // Derived again at another time from the same records: the upstream time keeps the id.
    const replay = deriveEvents(
      'transfer_in',
      at('OPEN', '2026-03-01T10:00:00Z'),
      at('HOLD', '2026-03-02T10:00:00Z'),
      testContext({ detectedAt: new Date() }),
    );
    expect(replay[0]?.id).toBe(first[0]?.id);
    // Put on hold again days later: a new episode.
    const second = deriveEvents(
      'transfer_in',
      at('OPEN', '2026-03-03T10:00:00Z'),
      at('HOLD', '2026-03-04T10:00:00Z'),
      ctx,
    );
    expect(second[0]?.id).not.toBe(first[0]?.id);
    // No update time that moved: detectedAt tells the episodes apart.
    const noTime = (c: typeof ctx) =>
      deriveEvents('transfer_in', at('OPEN', null), at('HOLD', null), c)[0]?.id;
    expect(noTime(ctx)).toBe(noTime(ctx));
    expect(noTime(testContext({ detectedAt: new Date('2026-03-05T10:00:00Z') }))).not.toBe(noTime(ctx));
  });
});
