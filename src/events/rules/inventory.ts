import type { OwnedInventory } from '../../api/records/index.ts';
import { diffFields, pickChanges } from '../changes.ts';
import { stableHash } from '../eventId.ts';
import { type EventDraft, makeEvent, subjectKey } from '../makeEvent.ts';
import type { EventRule, StockThresholds } from '../types.ts';

const QUANTITY_FIELDS = [
  'qtyOnHand',
  'qtyOnOrders',
  'qtyOnIns',
  'qtyAvailableToSell',
  'qtyAvailableToPromise',
] as const;

/** The low-stock level of a SKU: its own threshold, else the default. */
export function thresholdFor(sku: string, thresholds: StockThresholds): number {
  return thresholds.lowStockThresholdsBySku[sku] ?? thresholds.lowStockThreshold;
}

/**
 * Inventory events: changed (any quantity), low_stock (qtyAvailableToSell crosses below the
 * threshold), out_of_stock (reaches 0), restocked (rises from 0). A row that vanished upstream
 * arrives zeroed, so it yields out_of_stock like any other drop to 0.
 *
 * Snapshots carry no upstream time and stock can repeat the same transition on another day
 * (0 -> 5 -> 0), so the dedupe key includes detectedAt: a re-run that already committed sees
 * previous == current and derives nothing, which is what prevents duplicates here.
 */
export const inventoryRule: EventRule<OwnedInventory> = (previous, current, ctx) => {
  const changes = pickChanges(diffFields(previous, current), QUANTITY_FIELDS);
  if (changes.length === 0) return [];
  const key = subjectKey(ctx.scope, current.warehouseCode, current.subInventoryCode, current.sku);
  const episode = ctx.detectedAt.toISOString();
  const base = { kind: 'inventory' as const, key, current, previous, occurredAt: undefined, changes };
  const before = previous ? (previous.qtyAvailableToSell ?? null) : null;
  const after = current.qtyAvailableToSell ?? null;
  const ats = `${before ?? ''}>${after ?? ''}|${episode}`;
  const drafts: EventDraft[] = [
    {
      ...base,
      type: 'inventory.changed',
      transition: `${stableHash(quantities(previous))}>${stableHash(quantities(current))}|${episode}`,
    },
  ];
  if (after !== null && before !== after) {
    const threshold = thresholdFor(current.sku, ctx.thresholds);
    if (after < threshold && (before === null || before >= threshold)) {
      drafts.push({ ...base, type: 'inventory.low_stock', transition: ats });
    }
    if (after <= 0 && (before === null || before > 0)) {
      drafts.push({ ...base, type: 'inventory.out_of_stock', transition: ats });
    }
    if (after > 0 && before !== null && before <= 0) {
      drafts.push({ ...base, type: 'inventory.restocked', transition: ats });
    }
  }
  return drafts.map((draft) => makeEvent(draft, ctx));
};

function quantities(row: OwnedInventory | null): unknown[] {
  return QUANTITY_FIELDS.map((field) => row?.[field] ?? null);
}
