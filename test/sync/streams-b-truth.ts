import type pg from 'pg';
import { expect } from 'vitest';
import { inventory } from '../../src/db/schema/inventory.ts';
import { inventoryActivity } from '../../src/db/schema/inventoryActivity.ts';
import { orderAddresses, orderHolds, orderLines, orderMessages, orders } from '../../src/db/schema/orders.ts';
import {
  productBomInventories,
  productPtoComponents,
  productSellingInfos,
  products,
} from '../../src/db/schema/products.ts';
import { transferInLines, transferInNotes, transfersIn } from '../../src/db/schema/transfersIn.ts';
import type { SimTruth } from '../../src/simulator/index.ts';
import { contentKey } from '../../src/streams/contentKey.ts';
import { canonical } from '../../src/sync/normalize.ts';
import type { Row } from '../../src/sync/types.ts';
import { tableMismatches } from './streams-b-compare.ts';

/**
 * Where the streams-b tables differ from the simulator's truth (empty when equal): inventory,
 * inventory_activity, transfers_in (+ lines, notes), products (+ children), and the orders that
 * shipments or returns name (+ lines, holds, messages, addresses).
 */

const TZ = 'America/Los_Angeles';
async function rowsOf(pool: pg.Pool, table: string): Promise<Row[]> {
  return (await pool.query(`SELECT * FROM fulfillment.${table}`)).rows as Row[];
}

const k = (...parts: unknown[]) =>
  parts.map((p) => (p === null || p === undefined ? '' : String(p))).join('|');
const scalars = (r: object) => r as Record<string, unknown>;

/** The differences between the warehouse behind `db` and `truth`, as readable lines. */
export async function truthMismatches(db: pg.Pool, truth: SimTruth): Promise<string[]> {
  const problems: string[] = [];
  const bySupplier = <T>(m: Record<string, T[]>) =>
    Object.entries(m).flatMap(([s, rs]) => rs.map((r) => ({ s, r })));

  // inventory: every listed row equal; stored rows the truth no longer lists are zeroed and vanished.
  problems.push(
    ...tableMismatches({
      table: inventory,
      rows: await rowsOf(db, 'inventory'),
      rowKey: (r) => k(r.supplier_id, r.warehouse_code, r.sub_inventory_code, r.sku),
      records: bySupplier(truth.ownedInventory),
      recordKey: ({ s, r }) => k(s, r.warehouseCode, r.subInventoryCode, r.sku),
      fields: ({ r }) => scalars(r),
      timezone: TZ,
      extraOk: (r) => r.vanished_at !== null && r.qty_on_hand === 0 && r.qty_available_to_sell === 0,
    }),
  );
  problems.push(
    ...tableMismatches({
      table: inventoryActivity,
      rows: await rowsOf(db, 'inventory_activity'),
      rowKey: (r) =>
        k(r.supplier_id, canonical(r.activity_date, 'date'), r.warehouse_code, r.sub_inventory_code, r.sku),
      records: bySupplier(truth.inventoryActivity),
      recordKey: ({ s, r }) => k(s, r.activityDate, r.warehouseCode, r.subInventoryCode, r.sku),
      fields: ({ r }) => scalars(r),
      timezone: TZ,
    }),
  );

  // transfers_in: header (list and detail fields), lines, notes.
  const ins = bySupplier(truth.transfersIn);
  problems.push(
    ...tableMismatches({
      table: transfersIn,
      rows: await rowsOf(db, 'transfers_in'),
      rowKey: (r) => k(r.supplier_id, r.order_number),
      records: ins,
      recordKey: ({ s, r }) => k(s, r.header.orderNumber),
      fields: ({ r }) => scalars(r.header),
      timezone: TZ,
    }),
    ...tableMismatches({
      table: transferInLines,
      rows: await rowsOf(db, 'transfer_in_lines'),
      rowKey: (r) => k(r.supplier_id, r.order_number, r.line_number),
      records: ins.flatMap(({ s, r }) =>
        (r.lineItems ?? []).map((line) => ({ s, o: r.header.orderNumber, line })),
      ),
      recordKey: ({ s, o, line }) => k(s, o, line.lineNumber ?? 0),
      fields: ({ line }) => scalars(line),
      timezone: TZ,
      skip: ['orderNumber', 'supplierId'],
    }),
    ...tableMismatches({
      table: transferInNotes,
      rows: await rowsOf(db, 'transfer_in_notes'),
      rowKey: (r) => k(r.supplier_id, r.order_number, r.note_key),
      records: ins.flatMap(({ s, r }) =>
        (r.notes ?? []).map((note) => ({ s, o: r.header.orderNumber, note })),
      ),
      recordKey: ({ s, o, note }) => k(s, o, contentKey([note.typeCode, note.noteTimestamp, note.noteText])),
      fields: ({ note }) => scalars(note),
      timezone: TZ,
      skip: ['orderNumber', 'supplierId'],
    }),
  );

  // products: listing fields and detail header fields in one row; children from the detail.
  const listings = bySupplier(truth.ownedProducts);
  const details = new Map(bySupplier(truth.productDetails).map(({ s, r }) => [k(s, r.header.sku), r]));
  problems.push(
    ...tableMismatches({
      table: products,
      rows: await rowsOf(db, 'products'),
      rowKey: (r) => k(r.supplier_id, r.sku),
      records: listings,
      recordKey: ({ s, r }) => k(s, r.sku),
      fields: ({ s, r }) => {
        const d = details.get(k(s, r.sku));
        return { ...(d ? { ...d.header, isOwner: d.isOwner } : {}), ...r };
      },
      timezone: TZ,
    }),
  );
  const detailList = [...details.entries()].map(([key, d]) => ({ key, d }));
  const childCheck = [
    {
      table: productSellingInfos,
      name: 'product_selling_infos',
      member: 'sellingInfos' as const,
      own: (e: Record<string, unknown>) => e.sellerAccountNumber,
      col: 'seller_account_number',
    },
    {
      table: productPtoComponents,
      name: 'product_pto_components',
      member: 'ptoInfos' as const,
      own: (e: Record<string, unknown>) => e.componentNumber ?? 0,
      col: 'component_number',
    },
  ];
  for (const c of childCheck) {
    problems.push(
      ...tableMismatches({
        table: c.table,
        rows: await rowsOf(db, c.name),
        rowKey: (r) => k(r.supplier_id, r.sku, r[c.col]),
        records: detailList.flatMap(({ key, d }) =>
          ((d[c.member] ?? []) as Record<string, unknown>[]).map((e) => ({ key, e })),
        ),
        recordKey: ({ key, e }) => k(key, c.own(e)),
        fields: ({ e }) => e,
        timezone: TZ,
        rename: { sku: 'record_sku' },
      }),
    );
  }
  problems.push(
    ...tableMismatches({
      table: productBomInventories,
      rows: await rowsOf(db, 'product_bom_inventories'),
      rowKey: (r) => k(r.supplier_id, r.sku, r.warehouse_code, r.sub_inventory_code),
      records: detailList.flatMap(({ key, d }) => (d.bomInventories ?? []).map((e) => ({ key, e }))),
      recordKey: ({ key, e }) => k(key, e.warehouseCode, e.subInventoryCode),
      fields: ({ e }) => scalars(e),
      timezone: TZ,
      rename: { sku: 'record_sku' },
    }),
  );

  // orders: every order a shipment or return names, with its lines, holds, messages, addresses.
  const named = new Set<string>();
  for (const [acc, list] of Object.entries(truth.shipmentUpdates))
    for (const s of list) named.add(k(acc, s.header.orderNumber));
  for (const [acc, list] of Object.entries(truth.returns))
    for (const r of list) named.add(k(acc, r.orderNumber));
  const od = Object.entries(truth.orderDetails)
    .flatMap(([a, rs]) => rs.map((r) => ({ a, r, o: r.header.orderNumber ?? '' })))
    .filter(({ a, o }) => named.has(k(a, o)));
  expect(od.length).toBeGreaterThan(0);
  const childOf = <E>(pick: (r: (typeof od)[number]['r']) => E[] | null | undefined) =>
    od.flatMap(({ a, o, r }) => (pick(r) ?? []).map((e, i) => ({ a, o, e, i })));
  problems.push(
    ...tableMismatches({
      table: orders,
      rows: await rowsOf(db, 'orders'),
      rowKey: (r) => k(r.account_number, r.order_number),
      records: od,
      recordKey: ({ a, o }) => k(a, o),
      fields: ({ r }) => scalars(r.header),
      timezone: TZ,
    }),
    ...tableMismatches({
      table: orderLines,
      rows: await rowsOf(db, 'order_lines'),
      rowKey: (r) => k(r.account_number, r.order_number, r.line_number, r.component_number),
      records: childOf((r) => r.lineItems),
      recordKey: ({ a, o, e }) => k(a, o, e.lineNumber, e.componentNumber),
      fields: ({ e }) => scalars(e),
      timezone: TZ,
    }),
    ...tableMismatches({
      table: orderHolds,
      rows: await rowsOf(db, 'order_holds'),
      rowKey: (r) => k(r.account_number, r.order_number, r.hold_key),
      records: childOf((r) => r.holds),
      recordKey: ({ a, o, e }) => k(a, o, contentKey([e.holdName, e.creationDate])),
      fields: ({ e }) => scalars(e),
      timezone: TZ,
    }),
    ...tableMismatches({
      table: orderMessages,
      rows: await rowsOf(db, 'order_messages'),
      rowKey: (r) => k(r.account_number, r.order_number, r.message_key),
      records: childOf((r) => r.messages),
      recordKey: ({ a, o, e }) => k(a, o, contentKey([e.messageTime, e.messageType, e.message])),
      fields: ({ e }) => scalars(e),
      timezone: TZ,
    }),
    ...tableMismatches({
      table: orderAddresses,
      rows: await rowsOf(db, 'order_addresses'),
      rowKey: (r) => k(r.account_number, r.order_number, r.role, r.position),
      records: [
        ...childOf((r) => r.soldToConsumers).map((x) => ({ ...x, role: 'sold_to' })),
        ...childOf((r) => r.shipToConsumers).map((x) => ({ ...x, role: 'ship_to' })),
        ...childOf((r) => r.deliverToConsumers).map((x) => ({ ...x, role: 'deliver_to' })),
      ],
      recordKey: ({ a, o, role, i }) => k(a, o, role, i),
      fields: ({ e }) => scalars(e),
      timezone: TZ,
    }),
  );
  return problems;
}
