import type { FulfillmentClient } from '../api/fulfillmentClient.ts';
import type { InventoryActivity } from '../api/records/index.ts';
import { inventoryActivity } from '../db/schema/inventoryActivity.ts';
import { dayOf, rereadDayWindows } from '../sync/plan.ts';
import { recordRow } from '../sync/rows.ts';
import type { PlanInput, StreamDefinition, Window } from '../sync/types.ts';
import { INVENTORY_WAREHOUSES } from './inventory.ts';
import { splitInventoryWindow } from './inventoryParts.ts';

/**
 * inventory_activity: Inventories/Activity one day per call (the row carries no date: the call's
 * day is the row's `activity_date`). Each run reads from the cursor's day, or from today minus the
 * re-read horizon (default 1: today and yesterday, which still change), whichever is earlier.
 */

/** An activity row together with the day of the call that returned it. */
export interface DatedActivity {
  activityDate: string;
  activity: InventoryActivity;
}

const KEY = ['supplier_id', 'activity_date', 'warehouse_code', 'sub_inventory_code', 'sku'] as const;

/** One-day windows from the cursor (or the start) or the re-read horizon, up to today. */
export function planActivityWindows(input: PlanInput): Window[] {
  // One day per call: the row has no date of its own, so a call must cover exactly one day.
  return rereadDayWindows(input, 1);
}

/** The inventory_activity stream (docs/configuration.md, streams). */
export const inventoryActivityStream: StreamDefinition<
  DatedActivity,
  Pick<FulfillmentClient, 'listInventoryActivity'>
> = {
  name: 'inventory_activity',
  scopeKind: 'supplier',
  planWindows: planActivityWindows,
  // One day too large for one answer: by warehouse, sub-inventory, SKU (the filters combine, spec 4.5).
  splitWindow: (window, args) => splitInventoryWindow(window, args, INVENTORY_WAREHOUSES),
  fetchWindow: async ({ client, scope, window, timezone }) => {
    const day = dayOf(window.start, timezone);
    const answer = await client.listInventoryActivity({
      supplierId: scope.id,
      beginDate: day,
      endDate: day,
      warehouseCode: window.filter?.warehouseCode,
      subInventoryCode: window.filter?.subInventoryCode,
      sku: window.filter?.sku,
    });
    return {
      records: answer.records.map((activity) => ({ activityDate: day, activity })),
      rejected: answer.rejected,
      repaired: answer.repaired,
      apiCalls: 1,
    };
  },
  entity: {
    table: inventoryActivity,
    key: KEY,
    row: ({ activityDate, activity }, ctx) =>
      recordRow(inventoryActivity, activity, ctx, {
        key: KEY,
        overrides: { supplier_id: ctx.scope.id, activity_date: activityDate },
      }),
  },
};
