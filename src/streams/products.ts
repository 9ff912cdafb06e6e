import type { FulfillmentClient } from '../api/fulfillmentClient.ts';
import { type OwnedProduct, ownedProductSchema, type ProductDetail } from '../api/records/index.ts';
import type { Queryable } from '../db/queryable.ts';
import {
  productBomInventories,
  productPtoComponents,
  productSellingInfos,
  products,
} from '../db/schema/products.ts';
import { tableInfo } from '../sync/columns.ts';
import { dayOf } from '../sync/plan.ts';
import { detailOnlyColumns, listChild, recordRow } from '../sync/rows.ts';
import type { Absent } from '../sync/shrinkRule.ts';
import type { PlanInput, Row, RowContext, StreamDefinition, Window } from '../sync/types.ts';
import { detailOutcome } from './detailCall.ts';
import { splitProductsWindow } from './productParts.ts';

/**
 * products: the owned listing per supplier, in full, every run (in parts, by item type and then by
 * SKU, when an answer is too large: productParts.ts). The first run of a (Pacific) day
 * also fetches every product's detail ('all'); later runs that day fetch detail only for listing
 * rows that are new or changed ('changed'). Detail-only columns are left out of listing-based
 * rows, so the diff compares only what the listing can tell.
 */

type Client = Pick<FulfillmentClient, 'listOwnedProducts' | 'getProductDetail'>;

/** A listing row, with its detail when this run fetched it. */
export interface ProductRecord {
  listing: OwnedProduct;
  detail?: ProductDetail | undefined;
}

const KEY = ['supplier_id', 'sku'] as const;
const SELLING_KEY = ['supplier_id', 'sku', 'seller_account_number'] as const;
const PTO_KEY = ['supplier_id', 'sku', 'component_number'] as const;
const BOM_KEY = ['supplier_id', 'sku', 'warehouse_code', 'sub_inventory_code'] as const;

/** Columns only the detail fills (the header's own, is_owner, detail_raw, detail_fetched_at): rows.ts's rule. */
export const DETAIL_ONLY_COLUMNS: readonly string[] = detailOnlyColumns(
  products,
  Object.keys(ownedProductSchema.shape),
);

/** 'all' on the first run of a day (or ever), else 'changed'. Never moves a cursor. */
export function planProductWindows(input: Pick<PlanInput, 'cursor' | 'now' | 'timezone'>): Window[] {
  const last = input.cursor.lastSuccessAt;
  const daily = !last || dayOf(last, input.timezone) !== dayOf(input.now, input.timezone);
  return [
    { kind: 'filter', start: input.now, end: input.now, filter: { detail: daily ? 'all' : 'changed' } },
  ];
}

/** The detail-only columns of one product detail, stamped with the run's time. */
export function productDetailColumns(detail: ProductDetail, ctx: RowContext): Row {
  const full = recordRow(products, { ...detail.header, isOwner: detail.isOwner }, ctx, {
    overrides: { detail_raw: detail },
  });
  const out: Row = {};
  for (const c of DETAIL_ONLY_COLUMNS) out[c] = full[c];
  return { ...out, detail_fetched_at: ctx.now };
}

/** The products row of a listing row (plus detail columns when the detail was fetched). */
export function productRow(record: ProductRecord, ctx: RowContext): Row {
  const row = recordRow(products, record.listing, ctx, {
    key: KEY,
    overrides: { supplier_id: ctx.scope.id, raw: record.listing },
    omit: DETAIL_ONLY_COLUMNS,
  });
  return record.detail ? { ...row, ...productDetailColumns(record.detail, ctx) } : row;
}

function childBase(record: ProductRecord, ctx: RowContext): Row {
  return { supplier_id: ctx.scope.id, sku: record.listing.sku };
}

/** The listing read whole (not in parts by item type or SKU): it names every product there is. */
function listsWhole(window: Window): boolean {
  return window.filter?.itemTypeCode === undefined && window.filter?.sku === undefined;
}

/** The supplier's stored products a whole listing does not name, out of how many are stored. */
async function unlisted(
  db: Queryable,
  supplierId: string,
  records: readonly ProductRecord[],
): Promise<Absent> {
  const res = await db.query<{ sku: string; listed: boolean }>(
    `SELECT sku, sku = ANY($2::text[]) AS listed FROM ${tableInfo(products).qualified} WHERE supplier_id = $1`,
    [supplierId, records.map((r) => r.listing.sku)],
  );
  return { held: res.rows.length, missing: res.rows.filter((r) => !r.listed).map((r) => r.sku) };
}

/** The products stream (docs/configuration.md, streams). */
export const productsStream: StreamDefinition<ProductRecord, Client> = {
  name: 'products',
  scopeKind: 'supplier',
  planWindows: planProductWindows,
  splitWindow: splitProductsWindow,
  fetchWindow: async ({ client, scope, window, db }) => {
    const listing = await client.listOwnedProducts({
      supplierId: scope.id,
      itemTypeCode: window.filter?.itemTypeCode,
      sku: window.filter?.sku,
    });
    const records = listing.records.map((row) => ({ listing: row }));
    return {
      records,
      rejected: listing.rejected,
      repaired: listing.repaired ?? [],
      apiCalls: 1,
      // The whole listing serves the requests of products it does not list: confirmed first.
      ...(listsWhole(window) ? { absent: await unlisted(db, scope.id, records) } : {}),
    };
  },
  entity: {
    table: products,
    key: KEY,
    row: productRow,
    hasChildren: (record) => record.detail !== undefined,
    children: [
      listChild({
        table: productSellingInfos,
        key: SELLING_KEY,
        parentKey: KEY,
        items: (record) => record.detail?.sellingInfos,
        columns: (record, info, ctx) => ({ ...childBase(record, ctx), record_sku: info.sku ?? null }),
      }),
      listChild({
        table: productPtoComponents,
        key: PTO_KEY,
        parentKey: KEY,
        items: (record) => record.detail?.ptoInfos,
        columns: (record, pto, ctx) => ({
          ...childBase(record, ctx),
          record_sku: pto.sku ?? null,
          component_number: pto.componentNumber ?? 0,
        }),
      }),
      listChild({
        table: productBomInventories,
        key: BOM_KEY,
        parentKey: KEY,
        items: (record) => record.detail?.bomInventories,
        columns: (record, bom, ctx) => ({ ...childBase(record, ctx), record_sku: bom.sku ?? null }),
      }),
    ],
  },
  // Detail for new or changed listing rows, for every row on a day's first run, and for rows whose
  // earlier detail call failed; a failed detail leaves the stored detail columns and children alone.
  details: {
    key: (record) => record.listing.sku,
    limit: 500,
    has: (record) => record.detail !== undefined,
    wanted: (_record, window) => window.filter?.detail === 'all',
    // The listing read whole (not in parts by item type or SKU) names every product there is.
    listsAll: listsWhole,
    fetch: async ({ client, scope, key, listed }) => {
      // A product's row is its listing row; one not listed is not fetched (no followDue, no byKey).
      if (!listed) return { failure: `product ${key} is not in the listing` };
      return detailOutcome(
        () => client.getProductDetail(scope.id, key),
        (detail) => ({ listing: listed.listing, detail }),
      );
    },
  },
};
