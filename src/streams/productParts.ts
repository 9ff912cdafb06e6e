import { ITEM_TYPE_CODES } from '../api/records/index.ts';
import { products } from '../db/schema/products.ts';
import { tableInfo } from '../sync/columns.ts';
import type { SplitArgs, Window } from '../sync/types.ts';
import { knownSkus, namedIn } from './knownSkus.ts';

/**
 * How a products listing too large for one answer is read in parts (spec 4.2): by item type, then
 * an item type by SKU. Products have no snapshot (nothing is zeroed when a listing misses a row),
 * so a part only has to return what it names; each keeps the window's `detail` mode.
 *
 * The SKUs of an item type: the rows of its cut answer, its stored products, and the SKUs the
 * warehouse names elsewhere (stock, activity, IN lines: knownSkus.ts) that no stored product names
 * yet (their type is unknown, so each too-large type asks for them). Blind spot: a new product of
 * an item type too large for one answer, beyond the cut and named nowhere else, is read once an IN
 * that sends it, its stock or its activity is stored, or once its type fits in one answer again. A product of an item type outside
 * the eight the API names cannot be asked for by type.
 */

function part(window: Window, filter: Record<string, string>): Window {
  return { ...window, filter: { ...window.filter, ...filter } };
}

/** The SKUs to ask for one by one within an item type: its products, those cut, unplaced ones. */
async function skusOfType(args: SplitArgs, itemTypeCode: string): Promise<string[]> {
  const stored = await args.db.query<{ sku: string }>(
    `SELECT sku FROM ${tableInfo(products).qualified} WHERE supplier_id = $1 AND item_type_code = $2`,
    [args.scope.id, itemTypeCode],
  );
  const cut = namedIn(args.cutRows, 'sku', { itemTypeCode });
  const unplaced = await knownSkus(args, true);
  return [...new Set([...stored.rows.map((r) => r.sku), ...cut, ...unplaced])].sort();
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
