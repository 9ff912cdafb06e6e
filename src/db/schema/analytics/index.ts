/**
 * Schema `analytics`: the model for questions (docs/analytics.md). drizzle-kit creates views in
 * export order, so shipment_facts comes before the views that read it.
 */

export * from './carrierPerformance.ts';
export * from './dailyInventory.ts';
export * from './openTransfersIn.ts';
export * from './orderLifecycle.ts';
export * from './returnRates.ts';
export * from './shipmentFacts.ts';
export * from './stockOutSpells.ts';
