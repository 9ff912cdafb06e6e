import type { ShipmentUpdate } from '../api/records/index.ts';
import { hash32, Rng } from './rng.ts';
import { HUBS, PLACES } from './world/names.ts';
import type { Zone } from './zone.ts';

const HOUR = 3_600_000;
const DESCRIPTIONS = ['Picked up by carrier', 'Arrived at facility', 'Departed facility', 'Out for delivery'];

/**
 * A large, static population of historical shipment updates for benchmarks and backfills. Only one
 * number per record is stored (its last-updated time, ascending); the record itself is generated
 * from (seed, index) whenever it is served, so a million of them cost 8 MB, not gigabytes.
 */
export class VolumeShipments {
  readonly updatedAt: Float64Array;
  private readonly base: number;

  constructor(
    readonly seed: number,
    readonly count: number,
    readonly accounts: readonly string[],
    readonly skus: Readonly<Record<string, readonly string[]>>,
    from: number,
    to: number,
  ) {
    this.base = hash32(seed, 'volume');
    this.updatedAt = new Float64Array(count);
    const slot = (to - from) / Math.max(1, count);
    // Each record sits in its own slot of the period, so the array is sorted by construction.
    let state = (seed ^ 0x9e3779b9) >>> 0;
    for (let i = 0; i < count; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      this.updatedAt[i] = Math.floor((from + (i + state / 4294967296) * slot) / 1000) * 1000;
    }
  }

  /** The account a record belongs to. */
  accountOf(index: number): string {
    return this.accounts[index % this.accounts.length] as string;
  }

  /** First index whose updatedAt is >= ms. */
  lowerBound(ms: number): number {
    let lo = 0;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.updatedAt[mid] as number) < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  containerId(index: number): string {
    return `V${String(index).padStart(9, '0')}`;
  }

  /** Index of a volume container id, or undefined. */
  indexOf(containerId: string): number | undefined {
    if (!/^V\d{9}$/.test(containerId)) return undefined;
    const i = Number(containerId.slice(1));
    return i < this.count ? i : undefined;
  }

  /** The record of one index, generated from (seed, index). */
  record(index: number, zone: Zone): ShipmentUpdate {
    // A cheap integer mix of (seed stream, index): hashing strings per record would dominate.
    const rng = new Rng(Math.imul(this.base ^ index, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b));
    const updated = this.updatedAt[index] as number;
    const containerId = this.containerId(index);
    const shipDate = updated - rng.int(6, 96) * HOUR;
    const place = rng.pick(PLACES);
    const nEvents = rng.int(1, 4);
    const final = rng.next();
    const status =
      nEvents < 3 ? 'IN_TRANSIT' : final < 0.85 ? 'DELIVERED' : final < 0.95 ? 'EXCEPTION' : 'RETURNED';
    const events = Array.from({ length: nEvents }, (_, e) => {
      const last = e === nEvents - 1;
      const hub = rng.pick(HUBS);
      const description =
        last && status !== 'IN_TRANSIT'
          ? status === 'DELIVERED'
            ? 'Delivered'
            : status === 'EXCEPTION'
              ? 'Delivery exception'
              : 'Returned to sender'
          : (DESCRIPTIONS[e] as string);
      return {
        containerId,
        eventTime: zone.iso(shipDate + ((updated - shipDate) * (e + 1)) / nEvents - rng.int(0, 30) * 60_000),
        city: last ? place.city : hub.city,
        stateOrProvince: last ? place.state : hub.state,
        description,
      };
    });
    const skus = this.skus[this.accountOf(index)] ?? ['SKU'];
    const carrier = rng.chance(0.6) ? 'CarrierA' : 'CarrierB';
    const tracking = `${carrier === 'CarrierA' ? '1Z' : '9400'}V${index}`;
    return {
      header: {
        containerId,
        orderNumber: `V-${index}`,
        shipDate: zone.iso(shipDate),
        carrierName: carrier,
        trackingNumber: tracking,
        trackingNumberUrl: `https://track.${carrier.toLowerCase()}.example/${tracking}`,
        statusCode: status,
        statusDescription: status,
      },
      lineItems: Array.from({ length: rng.int(1, 3) }, (_, l) => ({
        containerId,
        lineNumber: l + 1,
        sku: rng.pick(skus),
        quantity: rng.int(1, 12),
      })),
      events,
    };
  }
}
