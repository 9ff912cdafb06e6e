import { inventory } from '../db/schema/inventory.ts';
import { inventoryActivity } from '../db/schema/inventoryActivity.ts';
import { products } from '../db/schema/products.ts';
import { transferInLines } from '../db/schema/transfersIn.ts';
import { tableInfo } from '../sync/columns.ts';
import type { SplitArgs } from '../sync/types.ts';

/**
 * Every SKU of a supplier the warehouse knows, for calls that can only be divided SKU by SKU (the
 * API has no other way down from one item type or one sub-inventory). A product reaches the
 * warehouse through its listing, its stock, its activity or the INs that send it stock; one named
 * by none of these cannot be asked for by SKU. Activity is read for `ACTIVITY_DAYS` only.
 */

/** How far back activity rows name the codes and SKUs of a supplier. */
export const ACTIVITY_DAYS = 35;

/** The day from which activity rows are read. */
export function activitySince(now: Date): Date {
  return new Date(now.getTime() - ACTIVITY_DAYS * 86_400_000);
}

/** The supplier's known SKUs, sorted; `unplacedOnly`: only those no stored product names. */
export async function knownSkus({ db, scope, now }: SplitArgs, unplacedOnly = false): Promise<string[]> {
  const sources = [
    `SELECT sku FROM ${tableInfo(inventory).qualified} WHERE supplier_id = $1`,
    `SELECT sku FROM ${tableInfo(inventoryActivity).qualified} WHERE supplier_id = $1 AND activity_date >= $2::date`,
    `SELECT sku FROM ${tableInfo(transferInLines).qualified} WHERE supplier_id = $1`,
  ];
  if (!unplacedOnly) sources.push(`SELECT sku FROM ${tableInfo(products).qualified} WHERE supplier_id = $1`);
  const unplaced = unplacedOnly
    ? `AND NOT EXISTS (SELECT 1 FROM ${tableInfo(products).qualified} p WHERE p.supplier_id = $1 AND p.sku = k.sku)`
    : '';
  const result = await db.query<{ sku: string }>(
    `SELECT DISTINCT k.sku FROM (${sources.join(' UNION ')}) k
      WHERE k.sku IS NOT NULL AND k.sku <> '' ${unplaced} ORDER BY 1`,
    [scope.id, activitySince(now)],
  );
  return result.rows.map((r) => r.sku);
}

/** The text value of `field` in each raw row that has one (rows of a cut answer, unvalidated). */
export function namedIn(rows: readonly unknown[], field: string, where?: Record<string, string>): string[] {
  const out: string[] = [];
  for (const row of rows) {
    if (!row || typeof row !== 'object') continue;
    const r = row as Record<string, unknown>;
    if (where && Object.entries(where).some(([k, v]) => (r[k] ?? '') !== v)) continue;
    const value = r[field];
    if (typeof value === 'string' && value !== '') out.push(value);
  }
  return out;
}
