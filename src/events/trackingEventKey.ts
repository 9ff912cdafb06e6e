import type { ShipmentEvent } from '../api/records/index.ts';
import { codePart, contentKey, instantPart, type KeyClock, textPart } from '../streams/contentKey.ts';

/**
 * The key of one shipment tracking event: the content key of what the scan says (its instant, city,
 * state or province, description; contentKey.ts), so the same scan sent in another spelling keeps
 * its key. The warehouse's shipment_events.event_key uses this same function, so events and rows agree.
 */
export function trackingEventKey(event: ShipmentEvent, clock: KeyClock): string {
  return contentKey([
    instantPart(event.eventTime, clock),
    codePart(event.city),
    codePart(event.stateOrProvince),
    textPart(event.description),
  ]);
}
