import type { SimTruth } from '../../src/simulator/truth.ts';
import { daysBetween } from '../../src/time/days.ts';
import { type AnswerRow, addDays, round, type SyncSnapshot, sum } from './analyticsTruth.ts';

/** Complete days the shipping rate is measured over (analytics.days_of_cover). */
const WINDOW_DAYS = 28;

/**
 * Question 11 of docs/analytics.md from the simulator's truth alone: per supplier, warehouse and
 * SKU, the stock the last sync saw listed (a row gone from the listing is left out), over its
 * sub-inventories, against the units its activity shipped over the complete Pacific days before
 * `today` (28, or since the supplier's first activity day); the rows out of stock or lasting less
 * than two weeks.
 */
export function daysOfCover(truth: SimTruth, syncs: readonly SyncSnapshot[], today: string): AnswerRow[] {
  const stock = new Map<string, { onHand: number; available: number }>();
  for (const [supplier, rows] of Object.entries(syncs.at(-1)!.inventory)) {
    for (const r of rows) {
      const key = `${supplier}|${r.warehouseCode}|${r.sku}`;
      const cell = stock.get(key) ?? { onHand: 0, available: 0 };
      cell.onHand += r.qtyOnHand ?? 0;
      cell.available += r.qtyAvailableToSell ?? 0;
      stock.set(key, cell);
    }
  }
  const from = addDays(today, -WINDOW_DAYS);
  return [...stock].flatMap(([key, s]) => {
    const [supplier, warehouse, sku] = key.split('|') as [string, string, string];
    const activity = truth.inventoryActivity[supplier] ?? [];
    const first = activity.map((a) => a.activityDate).sort()[0];
    const days = first === undefined ? 0 : Math.max(Math.min(WINDOW_DAYS, daysBetween(first, today)), 0);
    const shipped = sum(
      activity
        .filter((a) => a.warehouseCode === warehouse && a.sku === sku)
        .filter((a) => a.activityDate >= from && a.activityDate < today)
        .map((a) => a.qtyShipped ?? 0),
    );
    const cover = shipped === 0 ? null : round((s.onHand * days) / shipped, 1);
    const out = s.available <= 0;
    if (!out && (cover === null || cover >= 14)) return [];
    const product = (truth.ownedProducts[supplier] ?? []).find((p) => p.sku === sku);
    return [
      {
        warehouse_code: warehouse,
        sku,
        description: product?.description ?? null,
        qty_on_hand: s.onHand,
        qty_available_to_sell: s.available,
        avg_daily_units_shipped: days === 0 ? null : round(shipped / days, 2),
        days_of_cover: cover,
      },
    ];
  });
}
