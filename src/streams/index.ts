import { STREAM_NAMES, type StreamName } from '../config/types.ts';
import type { StreamDefinition } from '../sync/types.ts';
import type { StreamClient } from './client.ts';
import { inventoryStream } from './inventory.ts';
import { inventoryActivityStream } from './inventoryActivity.ts';
import { invoicesStream } from './invoices.ts';
import { ordersStream } from './orders.ts';
import { productsStream } from './products.ts';
import { returnsStream } from './returns.ts';
import { shipmentsStream } from './shipments.ts';
import { transfersInStream } from './transfersIn.ts';
import { transfersOutStream } from './transfersOut.ts';

// biome-ignore lint/suspicious/noExplicitAny: each stream has its own record type; the engine is generic over it.
export type RegisteredStream = StreamDefinition<any, StreamClient>;

/** Every stream the engine can run, by name. One line per stream file. */
const REGISTRY: Partial<Record<StreamName, RegisteredStream>> = {
  shipments: shipmentsStream,
  returns: returnsStream,
  transfers_out: transfersOutStream,
  invoices: invoicesStream,
  products: productsStream,
  inventory: inventoryStream,
  inventory_activity: inventoryActivityStream,
  transfers_in: transfersInStream,
  orders: ordersStream,
};

/** The registered streams in the order a full sync runs them (docs/configuration.md, streams). */
export function allStreams(): RegisteredStream[] {
  return STREAM_NAMES.map((name) => REGISTRY[name]).filter((s): s is RegisteredStream => s !== undefined);
}

/** The stream of that name, or undefined. */
export function streamByName(name: string): RegisteredStream | undefined {
  return (REGISTRY as Record<string, RegisteredStream | undefined>)[name];
}
