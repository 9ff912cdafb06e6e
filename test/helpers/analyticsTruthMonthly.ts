import type { SimTruth } from '../../src/simulator/truth.ts';
import { type AnswerRow, ms, pacificDay, round, sum } from './analyticsTruth.ts';

/**
 * Question 8 of docs/analytics.md from the simulator's truth alone: per Pacific month since
 * `fromMonth` (yyyy-MM-01), units shipped that month (lines of shipments by ship date) and units
 * returned that month (by return date), over every account.
 */
export function returnRateMonthly(truth: SimTruth, fromMonth: string): AnswerRow[] {
  const monthOf = (at: number) => `${pacificDay(at).slice(0, 7)}-01`;
  const months = new Map<string, { shipped: number; returned: number }>();
  const cell = (month: string) => {
    const found = months.get(month) ?? { shipped: 0, returned: 0 };
    months.set(month, found);
    return found;
  };
  for (const shipments of Object.values(truth.shipmentUpdates)) {
    for (const s of shipments) {
      const at = ms(s.header.shipDate);
      if (at === null) continue;
      cell(monthOf(at)).shipped += sum((s.lineItems ?? []).map((l) => l.quantity ?? 0));
    }
  }
  for (const returns of Object.values(truth.returns)) {
    for (const r of returns) {
      const at = ms(r.returnDate);
      if (at === null) continue;
      cell(monthOf(at)).returned += sum((r.lineItems ?? []).map((l) => l.quantityReturned ?? 0));
    }
  }
  return [...months]
    .filter(([month]) => month >= fromMonth)
    .map(([month, { shipped, returned }]) => ({
      month,
      units_shipped: shipped,
      units_returned: returned,
      return_rate: shipped === 0 ? null : round(returned / shipped, 4),
    }));
}
