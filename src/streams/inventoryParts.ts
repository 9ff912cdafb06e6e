import type { OwnedInventory } from '../api/records/index.ts';
import { inventory } from '../db/schema/inventory.ts';
import { inventoryActivity } from '../db/schema/inventoryActivity.ts';
import { tableInfo } from '../sync/columns.ts';
import type { RejectedRecord, Row, Scope, SplitArgs, Window } from '../sync/types.ts';
import { activitySince, knownSkus, namedIn } from './knownSkus.ts';

/**
 * How an owned-inventory snapshot too large for one answer is read in parts (spec 4.5): the
 * supplier by warehouse, a warehouse by sub-inventory code, a sub-inventory by SKU. A SKU query
 * ignores warehouse and sub-inventory and answers the SKU's rows everywhere; its part keeps only the
 * rows of its own warehouse (and sub-inventory). Each part is a snapshot of exactly the keys its
 * filter names, so vanish detection stays exact part by part (`inventorySnapshotWhere`).
 *
 * Which codes exist is read from the rows of the cut answer, the stored inventory rows and the
 * recent inventory activity; SKUs from the cut answer and every place the warehouse names the
 * supplier's SKUs (knownSkus.ts). Blind spot: while a warehouse is too large for one answer, rows
 * under a sub-inventory code none of these names (beyond the cut, never stored, no activity yet) are
 * not read; a row appears through a movement, which the inventory_activity stream records on its
 * day, so such a code is read from the run after that activity is stored. Likewise a SKU beyond
 * the cut of a too-large sub-inventory that nothing else names. A warehouse whose known codes
 * include a null one is read by SKU instead, which covers every code. A supplier split by warehouse
 * on earlier runs (remembered, splitMemory.ts) is read in the warehouses known to hold its stock
 * only: a warehouse where it had nothing is read again once its activity names it, or at the daily
 * rediscovery.
 */

/** The filter of a part: which warehouse, sub-inventory and SKU it covers (absent: all). */
interface PartFilter {
  warehouseCode?: string | undefined;
  subInventoryCode?: string | undefined;
  sku?: string | undefined;
}

/** A part of `window` (same kind and time) narrowed to `filter`. */
function snapshotPart(window: Window, filter: PartFilter): Window {
  const out: Record<string, string> = { ...window.filter };
  for (const [k, v] of Object.entries(filter)) if (v !== undefined) out[k] = v;
  return { ...window, filter: out };
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

/** Distinct codes of `column` in the stored inventory and recent activity matching `where`. */
async function knownCodes(
  args: SplitArgs,
  column: 'warehouse_code' | 'sub_inventory_code',
  where: { warehouseCode?: string | undefined },
): Promise<string[]> {
  const params: unknown[] = [args.scope.id, activitySince(args.now)];
  let cond = 'supplier_id = $1';
  if (where.warehouseCode !== undefined) {
    params.push(where.warehouseCode);
    cond += ' AND warehouse_code = $3';
  }
  const result = await args.db.query<{ v: string }>(
    `SELECT ${column} AS v FROM ${tableInfo(inventory).qualified} WHERE ${cond}
     UNION
     SELECT ${column} FROM ${tableInfo(inventoryActivity).qualified} WHERE ${cond} AND activity_date >= $2::date
     ORDER BY 1`,
    params,
  );
  return result.rows.map((r) => r.v);
}

/**
 * The parts of a snapshot (or of one day of activity, which takes the same filters) whose answer
 * was too large, or null at the finest filter (one SKU). A warehouse or sub-inventory for which no
 * SKU is known cannot be divided: null, so it fails loudly.
 */
export async function splitInventoryWindow(
  window: Window,
  args: SplitArgs,
  warehouses: readonly string[],
): Promise<Window[] | null> {
  const f: PartFilter = window.filter ?? {};
  if (f.sku !== undefined) return null;
  if (f.warehouseCode === undefined) {
    const stored = await knownCodes(args, 'warehouse_code', {});
    const cut = namedIn(args.cutRows, 'warehouseCode');
    // Divided from memory, not from an answer: the warehouses known to hold the supplier's stock
    // suffice (stock reaches another one through a movement, which its activity names; and the
    // memory is dropped daily, splitMemory.ts). Divided now, every warehouse the API may name.
    const fixed = args.remembered && stored.length > 0 ? [] : warehouses;
    const all = [...new Set([...fixed, ...stored, ...cut])].filter((c) => c !== '');
    return all.map((warehouseCode) => snapshotPart(window, { warehouseCode }));
  }
  if (f.subInventoryCode === undefined) {
    const stored = await knownCodes(args, 'sub_inventory_code', f);
    const cut = namedIn(args.cutRows, 'subInventoryCode', { warehouseCode: f.warehouseCode });
    const codes = [...new Set([...stored, ...cut])].sort();
    // A null code cannot be asked for; SKU parts of the warehouse cover every code, known or not.
    if (codes.length > 0 && !codes.includes('')) {
      return codes.map((subInventoryCode) => snapshotPart(window, { ...f, subInventoryCode }));
    }
  }
  // A SKU query answers the SKU everywhere, so any of the supplier's SKUs may have rows here.
  const skus = [...new Set([...(await knownSkus(args)), ...namedIn(args.cutRows, 'sku')])].sort();
  if (skus.length === 0) return null;
  return skus.map((sku) => snapshotPart(window, { ...f, sku }));
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
