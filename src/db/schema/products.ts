import { boolean, index, integer, jsonb, primaryKey, text } from 'drizzle-orm/pg-core';
import { contentHash, fulfillmentSchema, keyText, num, raw, syncedAt, tz } from './columns.ts';

/**
 * Products: the owned-listing row (spec 2.5) merged with the product-detail header (spec 2.4).
 * Fields both carry (description, providerSku, supplierName, itemTypeCode, itemTypeName) share one
 * column. Detail-only columns stay null until the detail is fetched.
 */
export const products = fulfillmentSchema.table(
  'products',
  {
    supplierId: keyText('supplier_id'),
    sku: keyText('sku'),
    accountNumber: text('account_number'),
    description: text('description'),
    providerSku: text('provider_sku'),
    supplierName: text('supplier_name'),
    accountName: text('account_name'),
    itemTypeCode: text('item_type_code'),
    itemTypeName: text('item_type_name'),
    packSlipDescription: text('pack_slip_description'),
    isOwner: boolean('is_owner'),
    upcCode: text('upc_code'),
    brandName: text('brand_name'),
    fancifulName: text('fanciful_name'),
    appellation: text('appellation'),
    varietal: text('varietal'),
    vintage: text('vintage'),
    alcoholTypeCode: text('alcohol_type_code'),
    alcoholPercentage: text('alcohol_percentage'),
    bottleSizeMl: text('bottle_size_ml'),
    unitsPerCase: text('units_per_case'),
    vineyardDesignation: text('vineyard_designation'),
    ttbApprovalNumber: text('ttb_approval_number'),
    countryOfOriginCode: text('country_of_origin_code'),
    countryOfOriginName: text('country_of_origin_name'),
    regionOfOrigin: text('region_of_origin'),
    weight: num('weight'),
    unitsOfMeasure: text('units_of_measure'),
    isAvailableForSourcing: boolean('is_available_for_sourcing'),
    additionalAttributes: text('additional_attributes'),
    isBidStickered: boolean('is_bid_stickered'),
    retailPrice: num('retail_price'),
    deactivationStatus: text('deactivation_status'),
    vasCode: text('vas_code'),
    vasName: text('vas_name'),
    orientation: text('orientation'),
    location: text('location'),
    /** When the product detail was last fetched; null if never. */
    detailFetchedAt: tz('detail_fetched_at'),
    syncedAt: syncedAt(),
    /** The owned-listing row as received. */
    raw: raw(),
    contentHash: contentHash(),
    /** The product-detail header as received. */
    detailRaw: jsonb('detail_raw'),
  },
  (t) => [
    primaryKey({ name: 'products_pk', columns: [t.supplierId, t.sku] }),
    index('products_sku_idx').on(t.sku),
    index('products_item_type_code_idx').on(t.itemTypeCode),
  ],
);

/**
 * Product selling infos (spec 2.4 sellingInfos[]). In product child tables `sku` is the parent
 * product's SKU (the key); the element's own `sku` member is kept in `record_sku`.
 */
export const productSellingInfos = fulfillmentSchema.table(
  'product_selling_infos',
  {
    supplierId: keyText('supplier_id'),
    sku: keyText('sku'),
    sellerAccountNumber: keyText('seller_account_number'),
    sellerName: text('seller_name'),
    providerSku: text('provider_sku'),
    recordSku: text('record_sku'),
    description: text('description'),
    retailPrice: num('retail_price'),
    supplierName: text('supplier_name'),
    supplierPayment: num('supplier_payment'),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [
    primaryKey({ name: 'product_selling_infos_pk', columns: [t.supplierId, t.sku, t.sellerAccountNumber] }),
  ],
);

/** Pick-to-order components (spec 2.4 ptoInfos[]); `record_sku` is the component's SKU. */
export const productPtoComponents = fulfillmentSchema.table(
  'product_pto_components',
  {
    supplierId: keyText('supplier_id'),
    sku: keyText('sku'),
    componentNumber: integer('component_number').notNull(),
    providerSku: text('provider_sku'),
    recordSku: text('record_sku'),
    description: text('description'),
    quantity: integer('quantity'),
    retailPrice: num('retail_price'),
    weight: num('weight'),
    unitsOfMeasure: text('units_of_measure'),
    itemTypeCode: text('item_type_code'),
    itemTypeName: text('item_type_name'),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [
    primaryKey({ name: 'product_pto_components_pk', columns: [t.supplierId, t.sku, t.componentNumber] }),
    index('product_pto_components_record_sku_idx').on(t.recordSku),
  ],
);

/** Gift-set (BOM) inventories per warehouse (spec 2.4 bomInventories[]). */
export const productBomInventories = fulfillmentSchema.table(
  'product_bom_inventories',
  {
    supplierId: keyText('supplier_id'),
    sku: keyText('sku'),
    warehouseCode: keyText('warehouse_code'),
    subInventoryCode: keyText('sub_inventory_code'),
    warehouseName: text('warehouse_name'),
    providerSku: text('provider_sku'),
    recordSku: text('record_sku'),
    description: text('description'),
    itemsPerGset: integer('items_per_gset'),
    gsetsOnhand: integer('gsets_onhand'),
    itemsInGsets: integer('items_in_gsets'),
    gsetsReserved: integer('gsets_reserved'),
    itemsInReservedGsets: integer('items_in_reserved_gsets'),
    gsetsAvailable: integer('gsets_available'),
    itemsInAvailableGsets: integer('items_in_available_gsets'),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [
    primaryKey({
      name: 'product_bom_inventories_pk',
      columns: [t.supplierId, t.sku, t.warehouseCode, t.subInventoryCode],
    }),
  ],
);
