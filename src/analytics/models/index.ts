import { carrierWeeklyModel } from './carrierWeekly.ts';
import { dailyInventoryModel } from './dailyInventory.ts';
import type { AnalyticsModel } from './model.ts';
import { orderLifecycleModel } from './orderLifecycle.ts';
import { shipmentFactsModel } from './shipmentFacts.ts';
import { shippedUnitsModel } from './shippedUnits.ts';
import { stockOutSpellsModel } from './stockOutSpells.ts';

export type { AnalyticsModel, Batch } from './model.ts';

const MODELS: readonly AnalyticsModel[] = [
  shipmentFactsModel,
  orderLifecycleModel,
  carrierWeeklyModel,
  shippedUnitsModel,
  dailyInventoryModel,
  stockOutSpellsModel,
];

/** The model keeping `relation` (one of MAINTAINED in src/analytics/views.ts). */
export function modelOf(relation: string): AnalyticsModel {
  const model = MODELS.find((m) => m.relation === relation);
  if (!model) throw new Error(`no analytics model keeps ${relation}`);
  return model;
}
