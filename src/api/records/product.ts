import { z } from 'zod';
import { ALCOHOL_TYPES, ITEM_TYPE_CODES } from './enums.ts';
import { bool, int, keyText, num, openEnum, record, text } from './primitives.ts';

/** Wine product create request (spec 2.3) with the bounds of spec section 8. */
export const wineProductCreateSchema = z.object({
  supplierId: z.string().min(1, 'supplierId must not be empty'),
  sku: z.string().min(2, 'sku needs at least 2 characters'),
  caseQuantity: z.number().int().optional(),
  srp: z.number().optional(),
  brandName: z.string().min(1).max(100, 'brandName is at most 100 characters'),
  appellation: z.string().min(1).max(100, 'appellation is at most 100 characters'),
  alcoholType: z.string().min(1, 'alcoholType must not be empty'),
  alcoholPercentage: z.number().optional(),
  bottleSize: z.string().min(1, 'bottleSize must not be empty'),
  fancifulName: z.string().max(100, 'fancifulName is at most 100 characters').optional(),
  varietal: z.string().max(100, 'varietal is at most 100 characters').optional(),
  vineyardDesignation: z.string().max(150, 'vineyardDesignation is at most 150 characters').optional(),
  countryOfOrigin: z
    .string()
    .max(2)
    .refine((c) => c === 'US', 'countryOfOrigin: only US is accepted')
    .optional(),
  regionOfOrigin: z.string().max(100, 'regionOfOrigin is at most 100 characters').optional(),
  colaNumber: z.string().max(25, 'colaNumber is at most 25 characters').optional(),
  vintage: z.string().max(25, 'vintage is at most 25 characters').optional(),
  sellerAccountNumbers: z.array(z.string()).optional(),
});
export type WineProductCreate = z.infer<typeof wineProductCreateSchema>;
export const KNOWN_ALCOHOL_TYPES = ALCOHOL_TYPES;

export const productHeaderSchema = record({
  supplierId: text(),
  providerSku: text(),
  sku: text(),
  upcCode: text(),
  description: text(),
  itemTypeCode: text(),
  itemTypeName: text(),
  brandName: text(),
  fancifulName: text(),
  appellation: text(),
  varietal: text(),
  vintage: text(),
  alcoholTypeCode: text(),
  alcoholPercentage: text(),
  bottleSizeMl: text(),
  unitsPerCase: text(),
  vineyardDesignation: text(),
  ttbApprovalNumber: text(),
  countryOfOriginCode: text(),
  countryOfOriginName: text(),
  regionOfOrigin: text(),
  weight: num(),
  unitsOfMeasure: text(),
  isAvailableForSourcing: bool(),
  additionalAttributes: text(),
  isBidStickered: bool(),
  retailPrice: num(),
  supplierName: text(),
  deactivationStatus: text(),
  vasCode: text(),
  vasName: text(),
  orientation: text(),
  location: text(),
});

export const productSellingInfoSchema = record({
  sellerAccountNumber: text(),
  sellerName: text(),
  providerSku: text(),
  sku: text(),
  description: text(),
  retailPrice: num(),
  supplierName: text(),
  supplierPayment: num(),
});

export const productPtoInfoSchema = record({
  componentNumber: int(),
  providerSku: text(),
  sku: text(),
  description: text(),
  quantity: int(),
  retailPrice: num(),
  weight: num(),
  unitsOfMeasure: text(),
  itemTypeCode: text(),
  itemTypeName: text(),
});

export const productBomInventorySchema = record({
  warehouseCode: text(),
  warehouseName: text(),
  providerSku: text(),
  sku: text(),
  description: text(),
  subInventoryCode: text(),
  itemsPerGset: int(),
  gsetsOnhand: int(),
  itemsInGsets: int(),
  gsetsReserved: int(),
  itemsInReservedGsets: int(),
  gsetsAvailable: int(),
  itemsInAvailableGsets: int(),
});

/** Product detail payload (spec 2.4). */
export const productDetailSchema = record({
  isOwner: bool(),
  itemTypeCode: text(),
  header: productHeaderSchema,
  sellingInfos: z.array(productSellingInfoSchema).nullish(),
  ptoInfos: z.array(productPtoInfoSchema).nullish(),
  bomInventories: z.array(productBomInventorySchema).nullish(),
});

/** Owned product listing row (spec 2.5). */
export const ownedProductSchema = record({
  supplierId: text(),
  accountNumber: text(),
  sku: keyText(),
  description: text(),
  providerSku: text(),
  supplierName: text(),
  accountName: text(),
  itemTypeCode: openEnum(ITEM_TYPE_CODES),
  itemTypeName: text(),
  packSlipDescription: text(),
});

export type ProductDetail = z.infer<typeof productDetailSchema>;
export type ProductHeader = z.infer<typeof productHeaderSchema>;
export type ProductSellingInfo = z.infer<typeof productSellingInfoSchema>;
export type ProductPtoInfo = z.infer<typeof productPtoInfoSchema>;
export type ProductBomInventory = z.infer<typeof productBomInventorySchema>;
export type OwnedProduct = z.infer<typeof ownedProductSchema>;
