import { createHash } from 'node:crypto';
import type { ShipmentEvent } from '../api/records/index.ts';

/**
 * The key of one shipment tracking event: sha256 hex of eventTime, city, stateOrProvince and
 * description joined by '|' (nulls as ''). The warehouse's shipment_events.event_key should use
 * this same function so events and rows agree.
 */
export function trackingEventKey(event: ShipmentEvent): string {
  const parts = [event.eventTime, event.city, event.stateOrProvince, event.description];
  return createHash('sha256')
    .update(parts.map((part) => part ?? '').join('|'))
    .digest('hex');
}
