/**
 * The whole warehouse schema: `fulfillment` (synced records), `analytics` (the model for questions)
 * and `sync` (the worker's state).
 */
export * from './analytics/index.ts';
export * from './analyticsRefreshes.ts';
export * from './backfills.ts';
export { analyticsSchema, fulfillmentSchema, syncSchema } from './columns.ts';
export * from './events.ts';
export * from './inventory.ts';
export * from './inventoryActivity.ts';
export * from './invoices.ts';
export * from './masked.ts';
export * from './orders.ts';
export * from './piiKey.ts';
export * from './products.ts';
export * from './returns.ts';
export * from './shipments.ts';
export * from './sync.ts';
export * from './transfersIn.ts';
export * from './transfersOut.ts';
export * from './views.ts';
export * from './webhooks.ts';
