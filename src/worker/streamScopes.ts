import type { Config, StreamName } from '../config/types.ts';

/** Which configured list scopes each stream (docs/configuration.md, streams): an account or a supplier. */
export const STREAM_SCOPE_KIND: Readonly<Record<StreamName, 'account' | 'supplier'>> = {
  products: 'supplier',
  inventory: 'supplier',
  inventory_activity: 'supplier',
  transfers_in: 'supplier',
  transfers_out: 'supplier',
  shipments: 'account',
  returns: 'account',
  invoices: 'account',
  orders: 'account',
};

/** The scopes a stream runs for under this configuration. */
export function scopesOf(
  config: Pick<Config, 'supplierIds' | 'accountNumbers'>,
  stream: StreamName,
): readonly string[] {
  return STREAM_SCOPE_KIND[stream] === 'account' ? config.accountNumbers : config.supplierIds;
}
