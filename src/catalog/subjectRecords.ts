import { z } from 'zod';
import {
  invoiceSchema,
  orderDetailSchema,
  ownedInventorySchema,
  shipmentReturnSchema,
  shipmentUpdateSchema,
  transferInDetailSchema,
  transferOutSchema,
} from '../api/records/index.ts';
import type { SubjectKind } from '../events/types.ts';
import { describeFields } from './columnDescriptions.ts';
import type { JsonSchema } from './jsonSchema.ts';

/**
 * The record each subject kind's events carry in `data.current` (and `data.previous`): what
 * src/events/sink.ts hands the rules. `tables` maps the record's members to the warehouse tables
 * whose column comments describe their fields (`root`: the record itself).
 */
export const SUBJECT_RECORDS: Readonly<
  Record<SubjectKind, { title: string; schema: z.ZodType; about: string; tables: Record<string, string> }>
> = {
  shipment: {
    title: 'ShipmentUpdate',
    schema: shipmentUpdateSchema,
    about: 'the shipment update as received (spec 2.10: header, lineItems, events)',
    tables: {
      header: 'fulfillment.shipments',
      lineItems: 'fulfillment.shipment_lines',
      events: 'fulfillment.shipment_events',
    },
  },
  order: {
    title: 'OrderDetail',
    schema: orderDetailSchema,
    about: 'the order detail as received (spec 2.2: header, lineItems, holds, messages, addresses, ...)',
    tables: {
      root: 'fulfillment.orders',
      header: 'fulfillment.orders',
      lineItems: 'fulfillment.order_lines',
      holds: 'fulfillment.order_holds',
      messages: 'fulfillment.order_messages',
      soldToConsumers: 'fulfillment.order_addresses',
      shipToConsumers: 'fulfillment.order_addresses',
      deliverToConsumers: 'fulfillment.order_addresses',
    },
  },
  return: {
    title: 'ShipmentReturn',
    schema: shipmentReturnSchema,
    about: 'the return as received (spec 2.9, with its lineItems)',
    tables: { root: 'fulfillment.returns', lineItems: 'fulfillment.return_lines' },
  },
  inventory: {
    title: 'OwnedInventory',
    schema: ownedInventorySchema,
    about:
      'the owned-inventory row as received (spec 2.8); a row that vanished from the snapshot comes with its quantities zeroed',
    tables: { root: 'fulfillment.inventory' },
  },
  transfer_in: {
    title: 'TransferInDetail',
    schema: transferInDetailSchema,
    about:
      'the IN detail (spec 2.6: header, lineItems, notes); a state known only from the stored list row has the list header and lineItems []',
    tables: {
      header: 'fulfillment.transfers_in',
      lineItems: 'fulfillment.transfer_in_lines',
      notes: 'fulfillment.transfer_in_notes',
    },
  },
  transfer_out: {
    title: 'TransferOut',
    schema: transferOutSchema,
    about: 'the OUT list row as received (spec 2.7)',
    tables: { root: 'fulfillment.transfers_out' },
  },
  invoice: {
    title: 'Invoice',
    schema: invoiceSchema,
    about: 'the invoice as received (spec 2.13)',
    tables: { root: 'fulfillment.invoices' },
  },
};

/** The record's JSON Schema from its zod schema, its fields described by the warehouse comments. */
export function recordSchema(kind: SubjectKind): JsonSchema {
  const subject = SUBJECT_RECORDS[kind];
  const { $schema: _draft, ...schema } = z.toJSONSchema(subject.schema, { io: 'output' }) as JsonSchema;
  const { root, ...members } = subject.tables;
  return { title: subject.title, ...describeFields(schema, root, members) };
}
