import { z } from 'zod';
import { ORDER_STATUS_CODES, ORDER_TYPE_CODES } from './enums.ts';
import {
  bool,
  dateTime,
  int,
  nullableArray,
  num,
  openEnum,
  record,
  requiredBool,
  requiredDateTime,
  text,
} from './primitives.ts';

/** Personalization records inside order detail are "not shown": kept whole. */
const opaque = z.looseObject({});

export const orderDetailHeaderSchema = record({
  accountNumber: text(),
  customerName: text(),
  warehouseCode: text(),
  warehouseName: text(),
  providerOrderNumber: text(),
  orderNumber: text(),
  receivedDate: dateTime(),
  creationDate: requiredDateTime(),
  customerOrderDate: dateTime(),
  requestedShipDate: dateTime(),
  fulfillmentDate: dateTime(),
  shippedDate: dateTime(),
  batchNumber: text(),
  orderTypeCode: openEnum(ORDER_TYPE_CODES),
  orderTypeName: text(),
  requestedServiceLevel: text(),
  plannedServiceLevel: text(),
  orderStatusCode: openEnum(ORDER_STATUS_CODES),
  orderStatusName: text(),
  collapsedStatus: text(),
  notificationEmail: text(),
  notificationPhone: text(),
  giftMessage: text(),
  shippingInstructions: text(),
  complianceRoute: text(),
  fulfillmentRoute: text(),
  packingSlipCode: text(),
  packingSlipName: text(),
  isOnsitePurchase: requiredBool(),
  isLineHaul: requiredBool(),
  isEditable: requiredBool(),
  isCancellable: requiredBool(),
  isBackOrdered: requiredBool(),
  hasInventoryHold: requiredBool(),
  slaStatusCode: text(),
  slaStatusName: text(),
  slaDate: dateTime(),
  notificationTemplateCode: text(),
  notificationTemplateName: text(),
  packagingTypeCode: text(),
  packagingTypeName: text(),
  vasOrderPersonalizations: nullableArray(opaque),
});

export const orderDetailHoldSchema = record({
  holdStatus: text(),
  holdName: text(),
  holdDescription: text(),
  holdComment: text(),
  releaseReason: text(),
  releaseComment: text(),
  expirationDate: dateTime(),
  releaseDate: dateTime(),
  creationDate: requiredDateTime(),
  isDirectlyReleasable: requiredBool(),
});

export const orderDetailMessageSchema = record({
  messageType: text(),
  message: text(),
  messageTime: requiredDateTime(),
});

export const consumerAddressSchema = record({
  isResidentialAddress: requiredBool(),
  firstName: text(),
  middleName: text(),
  lastName: text(),
  companyName: text(),
  address1: text(),
  address2: text(),
  address3: text(),
  city: text(),
  stateCode: text(),
  stateName: text(),
  postalCode: text(),
  countryCode: text(),
  countryName: text(),
  deliveryStatusCode: text(),
  deliveryStatusName: text(),
  deliveryAddressTypeCode: text(),
  /** Present in shipTo and deliverTo records, absent in soldTo. */
  deliveryAddressTypeName: text(),
});

export const orderDetailLineSchema = record({
  lineNumber: text(),
  componentNumber: text(),
  inventoryItemId: text(),
  sku: text(),
  description: text(),
  isShippable: bool(),
  quantityOrdered: int(),
  quantityReserved: int(),
  quantityShipped: int(),
  itemShortage: int(),
  uom: text(),
  unitPrice: num(),
  subInventoryCode: text(),
  subInventoryName: text(),
  isBomComponent: bool(),
  vasOrderPersonalizations: nullableArray(opaque),
});

export const orderDetailPackageSchema = record({ shipmentKey: text() });

/** OrderDetail (spec 2.2): every member an array (nullable) except `header`. */
export const orderDetailSchema = record({
  header: orderDetailHeaderSchema,
  holds: nullableArray(orderDetailHoldSchema),
  messages: nullableArray(orderDetailMessageSchema),
  soldToConsumers: nullableArray(consumerAddressSchema),
  shipToConsumers: nullableArray(consumerAddressSchema),
  deliverToConsumers: nullableArray(consumerAddressSchema),
  lineItems: nullableArray(orderDetailLineSchema),
  packages: nullableArray(orderDetailPackageSchema),
  contents: nullableArray(opaque),
  trackings: nullableArray(opaque),
  notes: nullableArray(opaque),
  billings: nullableArray(opaque),
  accountPayableHeaders: nullableArray(opaque),
  accountPayableLines: nullableArray(opaque),
});

export type OrderDetail = z.infer<typeof orderDetailSchema>;
export type OrderDetailHeader = z.infer<typeof orderDetailHeaderSchema>;
export type OrderDetailHold = z.infer<typeof orderDetailHoldSchema>;
export type OrderDetailMessage = z.infer<typeof orderDetailMessageSchema>;
export type ConsumerAddress = z.infer<typeof consumerAddressSchema>;
export type OrderDetailLine = z.infer<typeof orderDetailLineSchema>;
