/**
 * Schema `analytics`: the model for questions (docs/analytics.md). Tables kept by the worker
 * (src/analytics/models/) and plain views over them and the synced tables; the catalogue of what
 * each reads is src/analytics/views.ts.
 */

export * from './carrierPerformance.ts';
export * from './dailyInventory.ts';
export * from './daysOfCover.ts';
export * from './freshness.ts';
export * from './openTransfersIn.ts';
export * from './orderLifecycle.ts';
export * from './products.ts';
export * from './returnRates.ts';
export * from './shipmentFacts.ts';
export * from './shippedUnits.ts';
export * from './stockOutSpells.ts';
