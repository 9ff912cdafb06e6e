import type { ShipmentEvent } from '../api/records/index.ts';
import { contentKey } from '../streams/contentKey.ts';

/**
 * The key of one shipment tracking event: the content key of eventTime, city, stateOrProvince and
 * description. The warehouse's shipment_events.event_key uses this same function, so events and
 * rows agree.
 */
export function trackingEventKey(event: ShipmentEvent): string {
  return contentKey([event.eventTime, event.city, event.stateOrProvince, event.description]);
}
