import { ITEM_TYPE_CODES } from '../api/records/index.ts';
import { inventory } from '../db/schema/inventory.ts';
import { products } from '../db/schema/products.ts';
import { tableInfo } from '../sync/columns.ts';
import type { SplitArgs, Window } from '../sync/types.ts';

/**
 * How a products listing too large for one answer is read in parts (spec 4.2): by item type, then
 * an item type by SKU. Products have no snapshot (nothing is zeroed when a listing misses a row),
 * so a part only has to return what it names; each keeps the window's `detail` mode.
 *
 * The SKUs of an item type are read from the warehouse: the stored products of that type, and SKUs
 * held in the stored inventory that no stored product names yet (their type is unknown, so each
 * too-large type asks for them). Blind spot: a new product of an item type too large for one
 * answer, cut from its answer and not yet in the inventory, is read once stock of it is stored
 * (an IN receipt), or once its type fits in one answer again. A product of an item type outside
 * the eight the API names cannot be asked for by type.
 */

function part(window: Window, filter: Record<string, string>): Window {
  return { ...window, filter: { ...window.filter, ...filter } };
}

/** The SKUs to ask for one by one within an item type: its known products, then unplaced stock. */
async function skusOfType({ db, scope }: SplitArgs, itemTypeCode: string): Promise<string[]> {
  const result = await db.query<{ sku: string }>(
    `SELECT sku FROM ${tableInfo(products).qualified} WHERE supplier_id = $1 AND item_type_code = $2
     UNION
     SELECT i.sku FROM ${tableInfo(inventory).qualified} i
      WHERE i.supplier_id = $1 AND i.sku <> ''
        AND NOT EXISTS (SELECT 1 FROM ${tableInfo(products).qualified} p
                         WHERE p.supplier_id = i.supplier_id AND p.sku = i.sku)
     ORDER BY 1`,
    [scope.id, itemTypeCode],
  );
  return result.rows.map((r) => r.sku);
}

/** The parts of a listing whose answer was too large, or null at the finest filter (one SKU). */
export async function splitProductsWindow(window: Window, args: SplitArgs): Promise<Window[] | null> {
  const f = window.filter ?? {};
  if (f.sku !== undefined) return null;
  if (f.itemTypeCode === undefined)
    return ITEM_TYPE_CODES.map((itemTypeCode) => part(window, { itemTypeCode }));
  const skus = await skusOfType(args, f.itemTypeCode);
  if (skus.length === 0) return null;
  return skus.map((sku) => part(window, { sku }));
}
