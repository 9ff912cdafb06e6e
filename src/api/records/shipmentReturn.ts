import { z } from 'zod';
import { RETURN_STATUS_CODES } from './enums.ts';
import { bigInt, bool, dateTime, int, openEnum, record, requiredBigInt, text } from './primitives.ts';

export const personalizationSchema = record({
  type: text(),
  lineNumber: int(),
  message: text(),
  options: z.array(record({ type: text(), option: text(), message: text() })).nullish(),
});

export const returnLineSchema = record({
  shipReturnId: bigInt(),
  shipmentKey: bigInt(),
  lineNumber: int(),
  componentNumber: int(),
  sku: text(),
  skuDescription: text(),
  providerSku: text(),
  quantityOrdered: int(),
  quantityShipped: int(),
  quantityReturned: int(),
  quantityDamaged: int(),
  quantityMissing: int(),
  vasOrderPersonalizations: z.array(personalizationSchema).nullish(),
});

/** Return record (spec 2.9). */
export const shipmentReturnSchema = record({
  shipReturnId: requiredBigInt(),
  shipmentKey: bigInt(),
  customerName: text(),
  providerOrderNumber: text(),
  orderNumber: text(),
  orderTypeCode: text(),
  orderTypeName: text(),
  shipFromWarehouseCode: text(),
  consumerFirstName: text(),
  consumerLastName: text(),
  consumerAddress1: text(),
  consumerAddress2: text(),
  consumerCity: text(),
  consumerState: text(),
  consumerZipCode: text(),
  notificationEmailAddress: text(),
  notificationPhoneNumber: text(),
  wmsCarrierCode: text(),
  carrierCode: text(),
  trackingNumber: text(),
  trackingNumberUrl: text(),
  trackingStatusUrl: text(),
  returnReasonCode: text(),
  returnReasonName: text(),
  processingStatusCode: openEnum(RETURN_STATUS_CODES),
  processingStatusName: text(),
  resolutionCode: text(),
  resolutionName: text(),
  shipDate: dateTime(),
  returnDate: dateTime(),
  hasPersonalizations: bool(),
  vasOrderPersonalizations: z.array(personalizationSchema).nullish(),
  lineItems: z.array(returnLineSchema).nullish(),
});

export type ShipmentReturn = z.infer<typeof shipmentReturnSchema>;
export type ReturnLine = z.infer<typeof returnLineSchema>;
export type Personalization = z.infer<typeof personalizationSchema>;
