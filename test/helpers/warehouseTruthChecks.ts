import type { PgTable } from 'drizzle-orm/pg-core';
import { STREAM_NAMES, type StreamName } from '../../src/config/types.ts';
import { inventory } from '../../src/db/schema/inventory.ts';
import { inventoryActivity } from '../../src/db/schema/inventoryActivity.ts';
import { invoices } from '../../src/db/schema/invoices.ts';
import { orderAddresses, orderHolds, orderLines, orderMessages, orders } from '../../src/db/schema/orders.ts';
import {
  productBomInventories,
  productPtoComponents,
  productSellingInfos,
  products,
} from '../../src/db/schema/products.ts';
import { returnLines, returns } from '../../src/db/schema/returns.ts';
import { shipmentEvents, shipmentLines, shipments } from '../../src/db/schema/shipments.ts';
import { transferInLines, transferInNotes, transfersIn } from '../../src/db/schema/transfersIn.ts';
import { transfersOut } from '../../src/db/schema/transfersOut.ts';
import { trackingEventKey } from '../../src/events/trackingEventKey.ts';
import type { SimTruth } from '../../src/simulator/truth.ts';
import { holdKey, messageKey, noteKey } from '../../src/streams/childKeys.ts';
import type { Row } from '../../src/sync/types.ts';

/**
 * Which truth records must fill which fulfillment table, per stream (the counterpart of the stream
 * mappings in src/streams, written from the spec records rather than reusing them).
 */

/** One table and the truth records it must hold exactly. */
export interface TruthCheck {
  table: PgTable;
  records: {
    /** The spec record's fields: each compared with its snake_case column. */
    fields: Record<string, unknown>;
    /** Column values the record does not carry (scope, parent key, content key), used for the key. */
    columns?: Row;
  }[];
  /** Field -> column where the column is not the field's snake_case. */
  rename?: Record<string, string>;
  /** Fields the table deliberately does not store (repeated parent keys). */
  skip?: readonly string[];
  /** List fields stored as child tables (each has its own check). */
  children?: readonly string[];
  /** Stored rows absent from the truth that are correct (vanished inventory, zeroed). */
  extraOk?: (row: Row) => boolean;
}

type Fields = Record<string, unknown>;
/** The zone the simulator's offset-less times are in, as the sync reads them by default. */
const SIMULATOR_CLOCK = { timezone: 'America/Los_Angeles' };
const asFields = (r: object) => r as Fields;
const flat = <T>(m: Record<string, T[]>) => Object.entries(m).flatMap(([s, rs]) => rs.map((r) => ({ s, r })));

/** The checks of the streams asked for, all streams by default. */
export function truthChecks(
  truth: SimTruth,
  options: { streams?: readonly StreamName[]; namedOrdersOnly?: boolean } = {},
): TruthCheck[] {
  if (truth.volume.shipments > 0 && (options.streams ?? STREAM_NAMES).includes('shipments'))
    throw new Error('truth has no volume shipments to compare: start the simulator without volume.shipments');
  const builders: Record<StreamName, () => TruthCheck[]> = {
    shipments: () => shipmentChecks(truth),
    returns: () => returnChecks(truth),
    invoices: () => [
      {
        table: invoices,
        records: flat(truth.invoices).map(({ s, r }) => ({
          fields: asFields(r),
          columns: { account_number: s },
        })),
      },
    ],
    transfers_out: () => [
      {
        table: transfersOut,
        records: flat(truth.transfersOut).map(({ s, r }) => ({
          fields: asFields(r),
          columns: { supplier_id: s },
        })),
      },
    ],
    inventory: () => [
      {
        table: inventory,
        records: flat(truth.ownedInventory).map(({ s, r }) => ({
          fields: asFields(r),
          columns: { supplier_id: s },
        })),
        // Rows the snapshot stopped listing stay, zeroed and marked vanished.
        extraOk: (r) => r.vanished_at !== null && r.qty_on_hand === 0 && r.qty_available_to_sell === 0,
      },
    ],
    inventory_activity: () => [
      {
        table: inventoryActivity,
        records: flat(truth.inventoryActivity).map(({ s, r }) => ({
          fields: asFields(r),
          columns: { supplier_id: s },
        })),
      },
    ],
    transfers_in: () => transferInChecks(truth),
    products: () => productChecks(truth),
    orders: () => orderChecks(truth, options.namedOrdersOnly ?? false),
  };
  return (options.streams ?? STREAM_NAMES).flatMap((s) => builders[s]());
}

function shipmentChecks(truth: SimTruth): TruthCheck[] {
  const updates = flat(truth.shipmentUpdates);
  const child = (pick: (u: (typeof updates)[number]['r']) => Fields[] | null | undefined) =>
    updates.flatMap(({ r }) => (pick(r) ?? []).map((e) => ({ r, e })));
  return [
    {
      table: shipments,
      records: updates.map(({ s, r }) => ({ fields: asFields(r.header), columns: { account_number: s } })),
    },
    {
      table: shipmentLines,
      records: child((u) => u.lineItems).map(({ r, e }) => ({
        fields: { ...e, containerId: r.header.containerId },
      })),
    },
    {
      table: shipmentEvents,
      records: updates
        .flatMap(({ r }) => (r.events ?? []).map((e) => ({ r, e })))
        .map(({ r, e }) => ({
          fields: { ...e, containerId: r.header.containerId },
          columns: { event_key: trackingEventKey(e, SIMULATOR_CLOCK) },
        })),
    },
  ];
}

function returnChecks(truth: SimTruth): TruthCheck[] {
  const all = flat(truth.returns);
  return [
    {
      table: returns,
      records: all.map(({ s, r }) => ({ fields: asFields(r), columns: { account_number: s } })),
      children: ['lineItems'],
    },
    {
      table: returnLines,
      records: all.flatMap(({ r }) =>
        (r.lineItems ?? []).map((l) => ({ fields: { ...l, shipReturnId: r.shipReturnId } })),
      ),
    },
  ];
}

function transferInChecks(truth: SimTruth): TruthCheck[] {
  const ins = flat(truth.transfersIn);
  const parent = (s: string, r: (typeof ins)[number]['r']) => ({
    supplier_id: s,
    order_number: r.header.orderNumber,
  });
  return [
    {
      table: transfersIn,
      records: ins.map(({ s, r }) => ({ fields: asFields(r.header), columns: { supplier_id: s } })),
    },
    {
      table: transferInLines,
      records: ins.flatMap(({ s, r }) =>
        (r.lineItems ?? []).map((line) => ({ fields: asFields(line), columns: parent(s, r) })),
      ),
      skip: ['orderNumber', 'supplierId'],
    },
    {
      table: transferInNotes,
      records: ins.flatMap(({ s, r }) =>
        (r.notes ?? []).map((note) => ({
          fields: asFields(note),
          columns: {
            ...parent(s, r),
            note_key: noteKey(note, SIMULATOR_CLOCK),
          },
        })),
      ),
      skip: ['orderNumber', 'supplierId'],
    },
  ];
}

function productChecks(truth: SimTruth): TruthCheck[] {
  const details = new Map(flat(truth.productDetails).map(({ s, r }) => [`${s}|${r.header.sku}`, { s, r }]));
  const detailList = [...details.values()];
  const child = <E extends object>(pick: (d: (typeof detailList)[number]['r']) => E[] | null | undefined) =>
    detailList.flatMap(({ s, r }) =>
      (pick(r) ?? []).map((e) => ({ fields: asFields(e), columns: { supplier_id: s, sku: r.header.sku } })),
    );
  return [
    {
      // One row holds the listing fields and the detail header's.
      table: products,
      records: flat(truth.ownedProducts).map(({ s, r }) => {
        const d = details.get(`${s}|${r.sku}`)?.r;
        return {
          fields: { ...(d ? { ...d.header, isOwner: d.isOwner } : {}), ...r },
          columns: { supplier_id: s },
        };
      }),
    },
    { table: productSellingInfos, records: child((d) => d.sellingInfos), rename: { sku: 'record_sku' } },
    { table: productPtoComponents, records: child((d) => d.ptoInfos), rename: { sku: 'record_sku' } },
    { table: productBomInventories, records: child((d) => d.bomInventories), rename: { sku: 'record_sku' } },
  ];
}

function orderChecks(truth: SimTruth, namedOnly: boolean): TruthCheck[] {
  const named = new Set<string>();
  for (const { s, r } of flat(truth.shipmentUpdates)) named.add(`${s}|${r.header.orderNumber}`);
  for (const { s, r } of flat(truth.returns)) named.add(`${s}|${r.orderNumber}`);
  const od = flat(truth.orderDetails).filter(
    ({ s, r }) => !namedOnly || named.has(`${s}|${r.header.orderNumber}`),
  );
  if (namedOnly && od.length === 0) throw new Error('no order in the truth is named by a shipment or return');
  const key = (s: string, r: (typeof od)[number]['r']) => ({
    account_number: s,
    order_number: r.header.orderNumber,
  });
  const child = <E extends object>(
    pick: (r: (typeof od)[number]['r']) => E[] | null | undefined,
    columns: (e: E, i: number) => Row = () => ({}),
  ) =>
    od.flatMap(({ s, r }) =>
      (pick(r) ?? []).map((e, i) => ({ fields: asFields(e), columns: { ...key(s, r), ...columns(e, i) } })),
    );
  const addresses = (role: string, pick: (r: (typeof od)[number]['r']) => object[] | null | undefined) =>
    child(pick, (_, i) => ({ role, position: i }));
  return [
    { table: orders, records: od.map(({ s, r }) => ({ fields: asFields(r.header), columns: key(s, r) })) },
    { table: orderLines, records: child((r) => r.lineItems) },
    {
      table: orderHolds,
      records: child(
        (r) => r.holds,
        (h) => ({ hold_key: holdKey(h, SIMULATOR_CLOCK) }),
      ),
    },
    {
      table: orderMessages,
      records: child(
        (r) => r.messages,
        (m) => ({ message_key: messageKey(m, SIMULATOR_CLOCK) }),
      ),
    },
    {
      table: orderAddresses,
      records: [
        ...addresses('sold_to', (r) => r.soldToConsumers),
        ...addresses('ship_to', (r) => r.shipToConsumers),
        ...addresses('deliver_to', (r) => r.deliverToConsumers),
      ],
    },
  ];
}
