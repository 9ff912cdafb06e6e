import type { ShipmentUpdate } from '../src/api/records/index.ts';

const CITIES = ['Napa', 'Sonoma', 'Paso Robles', 'Santa Maria', 'Dallas', 'Portland', 'Seattle', 'Reno'];
const STATES = ['CA', 'CA', 'CA', 'CA', 'TX', 'OR', 'WA', 'NV'];
const STATUSES = ['SHIPPED', 'IN_TRANSIT', 'DELIVERED', 'EXCEPTION', 'RETURNED'];

/** Minutes from `base` at which record `i` is updated: `perMinute` records per minute. */
export function minuteOf(i: number, perMinute: number): number {
  return Math.floor(i / perMinute);
}

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** Offset-less Pacific wall-clock time `minutes` after 2026-03-10T00:00 (no DST change nearby). */
export function wallClock(minutes: number, seconds = 0): string {
  const d = new Date(Date.UTC(2026, 2, 10, 0, 0, 0) + minutes * 60_000 + seconds * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/**
 * A deterministic shipment update: 1-3 lines and 2-4 tracking events, like the simulator's. `i`
 * picks the container and its update minute.
 */
export function shipmentUpdate(i: number, perMinute: number): ShipmentUpdate {
  const id = `BC${pad(i, 8)}`;
  const minute = minuteOf(i, perMinute);
  const lines = 1 + (i % 3);
  const events = 2 + (i % 3);
  return {
    header: {
      containerId: id,
      orderNumber: `ORD-${pad(Math.floor(i / 2), 7)}`,
      shipDate: wallClock(minute),
      carrierName: i % 2 ? 'CarrierA' : 'CarrierB',
      trackingNumber: `1Z${pad(i * 7919, 12)}`,
      trackingNumberUrl: `https://track.example/1Z${pad(i * 7919, 12)}`,
      statusCode: STATUSES[i % STATUSES.length] ?? 'SHIPPED',
      statusDescription: 'In transit to destination',
    },
    lineItems: Array.from({ length: lines }, (_, l) => ({
      containerId: id,
      lineNumber: l + 1,
      sku: `SKU-${pad((i + l) % 500, 4)}`,
      quantity: 1 + ((i + l) % 12),
    })),
    events: Array.from({ length: events }, (_, e) => ({
      containerId: id,
      eventTime: wallClock(minute, e),
      city: CITIES[(i + e) % CITIES.length] ?? null,
      stateOrProvince: STATES[(i + e) % STATES.length] ?? null,
      description: `Scan ${e + 1}: package ${e === events - 1 ? 'updated' : 'in transit'}`,
    })),
  };
}
