import { sql } from 'drizzle-orm';
import { boolean, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num } from '../columns.ts';

/**
 * The product dimension: one row per supplier and SKU with its description and wine attributes,
 * from the synced products (fulfillment.products), and for a SKU only the inventory names, its
 * description there. Nothing personal: names of wines, not of people.
 */
export const productDimension = analyticsSchema
  .view('products', {
    supplierId: text('supplier_id'),
    sku: text('sku'),
    description: text('description'),
    brandName: text('brand_name'),
    fancifulName: text('fanciful_name'),
    varietal: text('varietal'),
    vintage: text('vintage'),
    appellation: text('appellation'),
    regionOfOrigin: text('region_of_origin'),
    countryOfOriginCode: text('country_of_origin_code'),
    alcoholTypeCode: text('alcohol_type_code'),
    alcoholPercentage: text('alcohol_percentage'),
    bottleSizeMl: text('bottle_size_ml'),
    unitsPerCase: text('units_per_case'),
    itemTypeCode: text('item_type_code'),
    retailPrice: num('retail_price'),
    deactivationStatus: text('deactivation_status'),
    hasProductRecord: boolean('has_product_record'),
  })
  .as(sql`
    SELECT coalesce(p.supplier_id, i.supplier_id) AS supplier_id, coalesce(p.sku, i.sku) AS sku,
           coalesce(p.description, i.description) AS description, p.brand_name, p.fanciful_name, p.varietal,
           p.vintage, p.appellation, p.region_of_origin, p.country_of_origin_code, p.alcohol_type_code,
           p.alcohol_percentage, p.bottle_size_ml, p.units_per_case, p.item_type_code, p.retail_price,
           p.deactivation_status, p.sku IS NOT NULL AS has_product_record
      FROM fulfillment.products p
      FULL JOIN (SELECT supplier_id, sku, max(description) AS description
                   FROM fulfillment.inventory GROUP BY 1, 2) i
        ON i.supplier_id = p.supplier_id AND i.sku = p.sku`);
