import { z } from 'zod';
import { DELIVERY_METHOD_CODES, IN_STATUS_CODES } from './enums.ts';
import { bigInt, bool, dateTime, int, keyText, openEnum, record, text } from './primitives.ts';

/** IN create request (spec 2.6) with the pickup-site rule of spec 4.3 and 7.4. */
export const transferInCreateSchema = z
  .object({
    supplierId: z.string().min(2, 'supplierId needs at least 2 characters'),
    referenceNumber: z.string().min(1, 'referenceNumber must not be empty'),
    deliveryMethodCode: z.string().min(1, 'deliveryMethodCode must not be empty'),
    expectedDate: z.string().optional(),
    warehouseCode: z.string().optional(),
    pickupSiteId: z.number().int().nullish(),
    lineItems: z
      .array(z.object({ supplierSku: z.string(), subInventoryCode: z.string(), qty: z.number().int() }))
      .optional(),
  })
  .superRefine((req, ctx) => {
    const hasSite = req.pickupSiteId !== undefined && req.pickupSiteId !== null;
    if (req.deliveryMethodCode === 'PROVIDER_PICKUP' && !hasSite) {
      ctx.addIssue({
        code: 'custom',
        path: ['pickupSiteId'],
        message: 'PROVIDER_PICKUP needs a pickupSiteId',
      });
    }
    if (req.deliveryMethodCode === 'CLIENT_DROPOFF' && hasSite) {
      ctx.addIssue({
        code: 'custom',
        path: ['pickupSiteId'],
        message: 'CLIENT_DROPOFF requires pickupSiteId to be empty',
      });
    }
  });
export type TransferInCreate = z.infer<typeof transferInCreateSchema>;

const listRowShape = {
  supplierId: text(),
  rowId: bigInt(),
  supplierName: text(),
  warehouseCode: text(),
  warehouseName: text(),
  referenceNumber: text(),
  orderNumber: keyText(),
  submittedDate: dateTime(),
  statusCode: openEnum(IN_STATUS_CODES),
  statusName: text(),
  isCancellable: bool(),
  isEditable: bool(),
  deliveryMethodCode: openEnum(DELIVERY_METHOD_CODES),
  deliveryMethodName: text(),
  pickupSiteId: text(),
  pickupSiteCode: text(),
  pickupSiteLine1: text(),
  pickupSiteLine2: text(),
  pickupSiteCity: text(),
  pickupSiteStateCode: text(),
  pickupSitePostalCode: text(),
  pickupSiteCountryCode: text(),
  expectedDate: dateTime(),
  creationDate: dateTime(),
  createdBy: text(),
  lastUpdateDate: dateTime(),
  lastUpdatedBy: text(),
};

/** IN list row (spec 2.6). */
export const transferInListRowSchema = record(listRowShape);

export const transferInHeaderSchema = record({
  ...listRowShape,
  pickupSitePhone: text(),
  pickupSiteFax: text(),
  closedDate: dateTime(),
  notificationStatusCode: text(),
  notificationStatusName: text(),
  notificationStatusMessage: text(),
});

export const transferInLineSchema = record({
  supplierId: text(),
  headerRowId: text(),
  orderNumber: text(),
  lineNumber: int(),
  inventoryItemId: text(),
  providerSku: text(),
  sku: text(),
  skuDescription: text(),
  qtyOrdered: int(),
  qtyReceived: int(),
  subInventoryCode: text(),
  subInventoryName: text(),
  creationDate: dateTime(),
  createdBy: text(),
  lastUpdateDate: dateTime(),
  lastUpdatedBy: text(),
});

export const transferInNoteSchema = record({
  supplierId: text(),
  orderNumber: text(),
  typeCode: text(),
  noteTimestamp: dateTime(),
  noteText: text(),
  creationDate: dateTime(),
  createdBy: text(),
  lastUpdateDate: dateTime(),
  lastUpdatedBy: text(),
});

/** IN detail payload: header, lineItems, notes (spec 2.6). */
export const transferInDetailSchema = record({
  header: transferInHeaderSchema,
  lineItems: z.array(transferInLineSchema).nullish(),
  notes: z.array(transferInNoteSchema).nullish(),
});

export type TransferInListRow = z.infer<typeof transferInListRowSchema>;
export type TransferInHeader = z.infer<typeof transferInHeaderSchema>;
export type TransferInLine = z.infer<typeof transferInLineSchema>;
export type TransferInNote = z.infer<typeof transferInNoteSchema>;
export type TransferInDetail = z.infer<typeof transferInDetailSchema>;
