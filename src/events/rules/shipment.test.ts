import { describe, expect, it } from 'vitest';
import type { ShipmentUpdate } from '../../api/records/index.ts';
import { deriveEvents } from '../derive.ts';
import { testContext } from '../testContext.ts';

const ctx = testContext();
const scan = (eventTime: string, description: string) => ({
  containerId: 'C1',
  eventTime,
  city: 'Napa',
  stateOrProvince: 'CA',
  description,
});
const shipment = (
  statusCode: string,
  events = [scan('2026-03-01T08:00:00', 'Picked up')],
): ShipmentUpdate => ({
  header: { containerId: 'C1', orderNumber: 'O1', shipDate: '2026-03-01', statusCode },
  lineItems: [{ containerId: 'C1', lineNumber: 1, sku: 'A', quantity: 2 }],
  events,
});
const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('shipment rule', () => {
  it('emits created and one tracking event per scan when first seen in transit', () => {
    const events = deriveEvents('shipment', null, shipment('IN_TRANSIT'), ctx);
    expect(types(events)).toEqual(['shipment.created', 'shipment.tracking_event']);
    expect(events[0]?.subject).toEqual({ kind: 'shipment', key: 'C1' });
    // shipDate is Pacific wall-clock time without an offset.
    expect(events[0]?.occurredAt).toBe('2026-03-01T08:00:00.000Z');
    expect(events[1]?.occurredAt).toBe('2026-03-01T16:00:00.000Z');
  });

  it('emits created and delivered, not status_changed, when first seen DELIVERED', () => {
    expect(types(deriveEvents('shipment', null, shipment('DELIVERED'), ctx))).toEqual([
      'shipment.created',
      'shipment.delivered',
      'shipment.tracking_event',
    ]);
  });

  it('emits nothing for an unchanged record', () => {
    expect(deriveEvents('shipment', shipment('IN_TRANSIT'), shipment('IN_TRANSIT'), ctx)).toEqual([]);
  });

  it('emits status_changed plus delivered and the new scan on delivery', () => {
    const delivered = shipment('DELIVERED', [
      scan('2026-03-01T08:00:00', 'Picked up'),
      scan('2026-03-02T09:30:00-08:00', 'Delivered'),
    ]);
    const events = deriveEvents('shipment', shipment('IN_TRANSIT'), delivered, ctx);
    expect(types(events)).toEqual([
      'shipment.status_changed',
      'shipment.delivered',
      'shipment.tracking_event',
    ]);
    expect(events[0]?.data.changes).toEqual([
      { field: 'header.statusCode', from: 'IN_TRANSIT', to: 'DELIVERED' },
    ]);
    expect(events[1]?.occurredAt).toBe('2026-03-02T17:30:00.000Z');
    expect(events[2]?.data.changes[0]?.to).toMatchObject({ description: 'Delivered' });
  });

  it.each([
    ['EXCEPTION', 'shipment.exception'],
    ['RETURNED', 'shipment.returned'],
  ])('emits the %s event', (status, type) => {
    expect(types(deriveEvents('shipment', shipment('IN_TRANSIT'), shipment(status), ctx))).toEqual([
      'shipment.status_changed',
      type,
    ]);
  });

  it('gives the same ids on a re-run at another time, and different ids per transition', () => {
    const first = deriveEvents('shipment', null, shipment('DELIVERED'), ctx);
    const again = deriveEvents(
      'shipment',
      null,
      shipment('DELIVERED'),
      testContext({ detectedAt: new Date() }),
    );
    expect(again.map((e) => e.id)).toEqual(first.map((e) => e.id));
    expect(new Set(first.map((e) => e.id)).size).toBe(first.length);
  });

  it('gives a status change derived twice from the same records the same ids, even at another time', () => {
    const before = shipment('IN_TRANSIT');
    const after = shipment('EXCEPTION', [
      scan('2026-03-01T08:00:00', 'Picked up'),
      scan('2026-03-02T07:00:00', 'Address problem'),
    ]);
    const first = deriveEvents('shipment', before, after, ctx);
    const again = deriveEvents('shipment', before, after, testContext({ detectedAt: new Date() }));
    expect(types(first)).toEqual([
      'shipment.status_changed',
      'shipment.exception',
      'shipment.tracking_event',
    ]);
    expect(again.map((e) => e.id)).toEqual(first.map((e) => e.id));
  });

  it('gives a second EXCEPTION episode (EXCEPTION -> IN_TRANSIT -> EXCEPTION) new ids', () => {
    const picked = scan('2026-03-01T08:00:00', 'Picked up');
    const problem = scan('2026-03-02T07:00:00', 'Address problem');
    const moving = scan('2026-03-03T07:00:00', 'Back in transit');
    const again = scan('2026-03-04T07:00:00', 'Damaged');
    const inTransit = shipment('IN_TRANSIT', [picked]);
    const firstException = shipment('EXCEPTION', [picked, problem]);
    const recovered = shipment('IN_TRANSIT', [picked, problem, moving]);
    const secondException = shipment('EXCEPTION', [picked, problem, moving, again]);
    const first = deriveEvents('shipment', inTransit, firstException, ctx);
    const second = deriveEvents(
      'shipment',
      recovered,
      secondException,
      testContext({ detectedAt: new Date() }),
    );
    const idOf = (events: typeof first, type: string) => events.find((e) => e.type === type)?.id;
    for (const type of ['shipment.status_changed', 'shipment.exception']) {
      expect(idOf(first, type), type).toBeDefined();
      expect(idOf(second, type), type).toBeDefined();
      expect(idOf(second, type), type).not.toBe(idOf(first, type));
    }
  });

  it('tells a repeated episode without a new scan apart by detectedAt', () => {
    const firstException = deriveEvents('shipment', shipment('IN_TRANSIT'), shipment('EXCEPTION'), ctx);
    const secondException = deriveEvents(
      'shipment',
      shipment('IN_TRANSIT'),
      shipment('EXCEPTION'),
      testContext({ detectedAt: new Date('2026-03-05T10:00:00Z') }),
    );
    expect(secondException.map((e) => e.type)).toEqual(firstException.map((e) => e.type));
    for (const [index, event] of secondException.entries()) {
      expect(event.id).not.toBe(firstException[index]?.id);
    }
    // The same change derived again in the same run keeps its ids.
    const replay = deriveEvents('shipment', shipment('IN_TRANSIT'), shipment('EXCEPTION'), ctx);
    expect(replay.map((e) => e.id)).toEqual(firstException.map((e) => e.id));
  });

  it('emits no event for a change outside status and scans, and none for a reordered scan list', () => {
    const before = shipment('IN_TRANSIT', [
      scan('2026-03-01T08:00:00', 'A'),
      scan('2026-03-01T09:00:00', 'B'),
    ]);
    const after = shipment('IN_TRANSIT', [
      scan('2026-03-01T09:00:00', 'B'),
      scan('2026-03-01T08:00:00', 'A'),
    ]);
    expect(deriveEvents('shipment', before, after, ctx)).toEqual([]);
  });
});
