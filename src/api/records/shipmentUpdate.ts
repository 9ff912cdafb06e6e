import { z } from 'zod';
import { SHIPMENT_STATUS_CODES } from './enums.ts';
import { dateTime, int, keyText, openEnum, record, text } from './primitives.ts';

export const shipmentHeaderSchema = record({
  containerId: keyText(),
  orderNumber: text(),
  shipDate: dateTime(),
  carrierName: text(),
  trackingNumber: text(),
  trackingNumberUrl: text(),
  statusCode: openEnum(SHIPMENT_STATUS_CODES),
  statusDescription: text(),
});

export const shipmentLineSchema = record({
  containerId: text(),
  lineNumber: int(),
  sku: text(),
  quantity: int(),
});

export const shipmentEventSchema = record({
  containerId: text(),
  eventTime: dateTime(),
  city: text(),
  stateOrProvince: text(),
  description: text(),
});

/** Shipment update record (spec 2.10). */
export const shipmentUpdateSchema = record({
  header: shipmentHeaderSchema,
  lineItems: z.array(shipmentLineSchema).nullish(),
  events: z.array(shipmentEventSchema).nullish(),
});

export type ShipmentUpdate = z.infer<typeof shipmentUpdateSchema>;
export type ShipmentHeader = z.infer<typeof shipmentHeaderSchema>;
export type ShipmentLine = z.infer<typeof shipmentLineSchema>;
export type ShipmentEvent = z.infer<typeof shipmentEventSchema>;
