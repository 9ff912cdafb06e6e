/** The stream names (docs/configuration.md, streams), in the order a full sync runs them. */
export const STREAM_NAMES = [
  'products',
  'inventory',
  'inventory_activity',
  'transfers_in',
  'transfers_out',
  'shipments',
  'returns',
  'invoices',
  'orders',
] as const;
export type StreamName = (typeof STREAM_NAMES)[number];
