import type { ShipmentUpdate } from '../../api/records/index.ts';
import type { Shipment } from '../types.ts';
import { STATUS_NAMES } from '../world/names.ts';
import type { Zone } from '../zone.ts';

/** A shipment as Shipments/Updates returns it: its full current state. */
export function shipmentRecord(s: Shipment, zone: Zone): ShipmentUpdate {
  return {
    header: {
      containerId: s.containerId,
      orderNumber: s.orderNumber,
      shipDate: zone.iso(s.shipDate),
      carrierName: s.carrierName,
      trackingNumber: s.trackingNumber,
      trackingNumberUrl: trackingUrl(s.carrierName, s.trackingNumber),
      statusCode: s.status,
      statusDescription: STATUS_NAMES[s.status] ?? s.status,
    },
    lineItems: s.lines.map((l) => ({
      containerId: s.containerId,
      lineNumber: l.lineNumber,
      sku: l.sku,
      quantity: l.quantity,
    })),
    events: s.events.map((e) => ({
      containerId: s.containerId,
      eventTime: zone.iso(e.eventTime),
      city: e.city,
      stateOrProvince: e.state,
      description: e.description,
    })),
  };
}

export function trackingUrl(carrier: string, trackingNumber: string): string {
  return `https://track.${carrier.toLowerCase()}.example/${trackingNumber}`;
}
