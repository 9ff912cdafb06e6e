import { ANALYTICS_RETURN_RELATIONS } from './analyticsReturns.ts';
import { ANALYTICS_SHIPPING_RELATIONS } from './analyticsShipping.ts';
import { ANALYTICS_STOCK_RELATIONS } from './analyticsStock.ts';
import { ANALYTICS_SYNC_TABLES } from './analyticsSync.ts';
import type { TableText } from './tables.ts';

/**
 * Comments of the `analytics` relations (src/db/schema/analytics/) and of the worker's tables that
 * keep them, keyed `schema.relation`: what each answers, an example query, and every column.
 * docs/analytics.md is the guide over them.
 */
export const ANALYTICS_RELATIONS: Readonly<Record<string, TableText>> = {
  ...ANALYTICS_SHIPPING_RELATIONS,
  ...ANALYTICS_RETURN_RELATIONS,
  ...ANALYTICS_STOCK_RELATIONS,
  ...ANALYTICS_SYNC_TABLES,
};
