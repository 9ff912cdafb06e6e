import type { FulfillmentClient } from '../api/fulfillmentClient.ts';
import { type OwnedProduct, ownedProductSchema, type ProductDetail } from '../api/records/index.ts';
import {
  productBomInventories,
  productPtoComponents,
  productSellingInfos,
  products,
} from '../db/schema/products.ts';
import { tableInfo } from '../sync/columns.ts';
import { dayOf } from '../sync/plan.ts';
import { recordRow, snakeOf } from '../sync/rows.ts';
import type { PlanInput, RejectedRecord, Row, RowContext, StreamDefinition, Window } from '../sync/types.ts';

/**
 * products: the owned listing per supplier, in full, every run. The first run of a (Pacific) day
 * also fetches every product's detail ('all'); later runs that day fetch detail only for listing
 * rows that are new or changed ('changed', through `enrich`). Detail-only columns are left out of
 * listing-based rows, so the diff compares only what the listing can tell.
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

const LISTING_COLUMNS = new Set([...Object.keys(ownedProductSchema.shape).map(snakeOf), 'raw']);
/** Columns only the detail fills (the header's own, is_owner, detail_raw, detail_fetched_at). */
export const DETAIL_ONLY_COLUMNS: readonly string[] = [...tableInfo(products).types.keys()].filter(
  (c) => !LISTING_COLUMNS.has(c) && c !== 'synced_at',
);

/** 'all' on the first run of a day (or ever), else 'changed'. Never moves a cursor. */
export function planProductWindows(input: Pick<PlanInput, 'cursor' | 'now' | 'timezone'>): Window[] {
  const last = input.cursor.lastSuccessAt;
  const daily = !last || dayOf(last, input.timezone) !== dayOf(input.now, input.timezone);
  return [
    { kind: 'filter', start: input.now, end: input.now, filter: { detail: daily ? 'all' : 'changed' } },
  ];
}

/** The detail-only columns of one product detail (detail_fetched_at excluded: it is not data). */
export function productDetailColumns(detail: ProductDetail, ctx: RowContext): Row {
  const full = recordRow(products, { ...detail.header, isOwner: detail.isOwner }, ctx, {
    overrides: { detail_raw: detail },
  });
  const out: Row = {};
  for (const c of DETAIL_ONLY_COLUMNS) if (c !== 'detail_fetched_at') out[c] = full[c];
  return out;
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

// The hooks get no timezone; the fetch of the same window does (the engine passes one window object).
const zoneOf = new WeakMap<Window, string>();

/** The products stream (CONTRACT.md section 3). */
export const productsStream: StreamDefinition<ProductRecord, Client> = {
  name: 'products',
  scopeKind: 'supplier',
  planWindows: planProductWindows,
  fetchWindow: async ({ client, scope, window, timezone }) => {
    zoneOf.set(window, timezone);
    const listing = await client.listOwnedProducts({ supplierId: scope.id });
    let apiCalls = 1;
    const rejected: RejectedRecord[] = [...listing.rejected];
    const records: ProductRecord[] = [];
    for (const row of listing.records) {
      if (window.filter?.detail !== 'all') {
        records.push({ listing: row });
        continue;
      }
      const answer = await client.getProductDetail(scope.id, row.sku);
      apiCalls += 1;
      rejected.push(...answer.rejected);
      records.push({ listing: row, detail: answer.record ?? undefined });
    }
    return { records, rejected, apiCalls };
  },
  entity: {
    table: products,
    key: KEY,
    row: productRow,
    children: [
      {
        table: productSellingInfos,
        key: SELLING_KEY,
        parentKey: KEY,
        rows: (record, ctx) =>
          (record.detail?.sellingInfos ?? []).map((info) =>
            recordRow(productSellingInfos, info, ctx, {
              key: SELLING_KEY,
              overrides: { ...childBase(record, ctx), record_sku: info.sku ?? null },
            }),
          ),
      },
      {
        table: productPtoComponents,
        key: PTO_KEY,
        parentKey: KEY,
        rows: (record, ctx) =>
          (record.detail?.ptoInfos ?? []).map((pto) =>
            recordRow(productPtoComponents, pto, ctx, {
              key: PTO_KEY,
              overrides: {
                ...childBase(record, ctx),
                record_sku: pto.sku ?? null,
                component_number: pto.componentNumber ?? 0,
              },
            }),
          ),
      },
      {
        table: productBomInventories,
        key: BOM_KEY,
        parentKey: KEY,
        rows: (record, ctx) =>
          (record.detail?.bomInventories ?? []).map((bom) =>
            recordRow(productBomInventories, bom, ctx, {
              key: BOM_KEY,
              overrides: { ...childBase(record, ctx), record_sku: bom.sku ?? null },
            }),
          ),
      },
    ],
  },
  // New or changed listing rows get their detail now (a daily run has it already); the detail
  // columns join the parent row and `detail_fetched_at` records when.
  enrich: async ({ client, scope, window, changes, records }) => {
    const timezone = zoneOf.get(window);
    if (!timezone) throw new Error('products: enrich ran for a window it did not fetch; this is a bug');
    const at = new Date();
    const bySku = new Map(changes.map((c) => [c.record?.listing.sku, c]));
    let apiCalls = 0;
    const out: ProductRecord[] = [];
    for (const record of records) {
      let detail = record.detail;
      if (!detail) {
        const answer = await client.getProductDetail(scope.id, record.listing.sku);
        apiCalls += 1;
        detail = answer.record ?? undefined;
      }
      const enriched: ProductRecord = { listing: record.listing, detail };
      const change = bySku.get(record.listing.sku);
      if (change && detail) {
        Object.assign(change.row, productDetailColumns(detail, { scope, timezone }), {
          detail_fetched_at: at,
        });
        change.record = enriched;
      }
      out.push(enriched);
    }
    return { records: out, apiCalls };
  },
};
