import type { OwnedInventory } from '../api/records/index.ts';
import { inventory } from '../db/schema/inventory.ts';
import { inventoryActivity } from '../db/schema/inventoryActivity.ts';
import { products } from '../db/schema/products.ts';
import { tableInfo } from '../sync/columns.ts';
import type { RejectedRecord, Row, Scope, SplitArgs, Window } from '../sync/types.ts';

/**
 * How an owned-inventory snapshot too large for one answer is read in parts (spec 4.5): the
 * supplier by warehouse, a warehouse by sub-inventory code, a sub-inventory by SKU. A SKU query
 * ignores warehouse and sub-inventory and answers the SKU's rows everywhere; its part keeps only the
 * rows of its own warehouse (and sub-inventory). Each part is a snapshot of exactly the keys its
 * filter names, so vanish detection stays exact part by part (`inventorySnapshotWhere`).
 *
 * Which codes and SKUs exist is read from the warehouse: the stored inventory rows, the last
 * `ACTIVITY_DAYS` of inventory activity and (for SKUs) the supplier's products. Blind spot: rows
 * under a sub-inventory code that none of these names yet are not read while their warehouse is
 * too large for one answer. A row appears through a movement, which the inventory_activity stream
 * records on its day, so such a code is read from the first run after that activity is stored;
 * a warehouse whose known codes include a null one is read by SKU instead, which covers every code.
 */

/** How far back activity rows name the codes and SKUs of a warehouse. */
export const ACTIVITY_DAYS = 35;

/** The filter of a part: which warehouse, sub-inventory and SKU it covers (absent: all). */
interface PartFilter {
  warehouseCode?: string | undefined;
  subInventoryCode?: string | undefined;
  sku?: string | undefined;
}

function snapshotPart(window: Window, filter: PartFilter): Window {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(filter)) if (v !== undefined) out[k] = v;
  return { kind: 'snapshot', start: window.start, end: window.end, filter: out };
}

/** The stored key columns a part covers: supplier, then its warehouse, sub-inventory and SKU. */
export function inventorySnapshotWhere(scope: Scope, window: Window): Row {
  const where: Row = { supplier_id: scope.id };
  const f = window.filter ?? {};
  if (f.warehouseCode !== undefined) where.warehouse_code = f.warehouseCode;
  if (f.subInventoryCode !== undefined) where.sub_inventory_code = f.subInventoryCode;
  if (f.sku !== undefined) where.sku = f.sku;
  return where;
}

/** Distinct values of `column` in the stored inventory and recent activity matching `where`. */
async function knownValues(
  { db, scope, now }: SplitArgs,
  column: 'warehouse_code' | 'sub_inventory_code' | 'sku',
  where: { warehouseCode?: string | undefined; subInventoryCode?: string | undefined },
  withProducts: boolean,
): Promise<string[]> {
  const params: unknown[] = [scope.id, new Date(now.getTime() - ACTIVITY_DAYS * 86_400_000)];
  const conditions = ['supplier_id = $1'];
  if (where.warehouseCode !== undefined) {
    params.push(where.warehouseCode);
    conditions.push(`warehouse_code = $${params.length}`);
  }
  if (where.subInventoryCode !== undefined) {
    params.push(where.subInventoryCode);
    conditions.push(`sub_inventory_code = $${params.length}`);
  }
  const cond = conditions.join(' AND ');
  const sources = [
    `SELECT ${column} AS v FROM ${tableInfo(inventory).qualified} WHERE ${cond}`,
    `SELECT ${column} AS v FROM ${tableInfo(inventoryActivity).qualified} WHERE ${cond} AND activity_date >= $2::date`,
  ];
  if (withProducts)
    sources.push(`SELECT sku AS v FROM ${tableInfo(products).qualified} WHERE supplier_id = $1`);
  const result = await db.query<{ v: string }>(`${sources.join(' UNION ')} ORDER BY 1`, params);
  return result.rows.map((r) => r.v);
}

/**
 * The parts of a snapshot whose answer was too large, or null at the finest filter (one SKU). A
 * warehouse or sub-inventory for which no SKU is known cannot be divided: null, so it fails loudly.
 */
export async function splitInventoryWindow(
  window: Window,
  args: SplitArgs,
  warehouses: readonly string[],
): Promise<Window[] | null> {
  if (window.kind !== 'snapshot') return null;
  const f: PartFilter = window.filter ?? {};
  if (f.sku !== undefined) return null;
  if (f.warehouseCode === undefined) {
    const stored = await knownValues(args, 'warehouse_code', {}, false);
    const all = [...new Set([...warehouses, ...stored.filter((c) => c !== '')])];
    return all.map((warehouseCode) => snapshotPart(window, { warehouseCode }));
  }
  if (f.subInventoryCode === undefined) {
    const codes = await knownValues(args, 'sub_inventory_code', f, false);
    // A null code cannot be asked for; SKU parts of the warehouse cover every code, known or not.
    if (codes.length > 0 && !codes.includes('')) {
      return codes.map((subInventoryCode) => snapshotPart(window, { ...f, subInventoryCode }));
    }
  }
  const skus = (await knownValues(args, 'sku', f, true)).filter((s) => s !== '');
  if (skus.length === 0) return null;
  return [...new Set(skus)].map((sku) => snapshotPart(window, { ...f, sku }));
}

function inPart(warehouseCode: unknown, subInventoryCode: unknown, f: PartFilter): boolean {
  return (
    (f.warehouseCode === undefined || (warehouseCode ?? '') === f.warehouseCode) &&
    (f.subInventoryCode === undefined || (subInventoryCode ?? '') === f.subInventoryCode)
  );
}

/**
 * A SKU answer holds the SKU's rows in every warehouse: keep those of the part's warehouse and
 * sub-inventory, and the rejected rows that may be of it (their key unreadable, or in the part).
 */
export function keepPartRows(
  answer: { records: OwnedInventory[]; rejected: RejectedRecord[] },
  window: Window,
): { records: OwnedInventory[]; rejected: RejectedRecord[] } {
  const f: PartFilter = window.filter ?? {};
  const records = answer.records.filter((r) => inPart(r.warehouseCode, r.subInventoryCode, f));
  const rejected = answer.rejected.filter((r) => {
    const raw = r.raw && typeof r.raw === 'object' ? (r.raw as Record<string, unknown>) : undefined;
    if (!raw || typeof raw.warehouseCode !== 'string') return true;
    return inPart(raw.warehouseCode, raw.subInventoryCode, f);
  });
  return { records, rejected };
}
