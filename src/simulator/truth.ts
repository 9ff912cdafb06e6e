import type {
  InventoryActivity,
  Invoice,
  OrderDetail,
  OwnedInventory,
  OwnedProduct,
  ProductDetail,
  ShipmentReturn,
  ShipmentUpdate,
  TransferInDetail,
  TransferOut,
} from '../api/records/index.ts';
import { activityRecord, ownedInventoryRecord } from './records/inventory.ts';
import { invoiceRecord } from './records/misc.ts';
import { orderDetailRecord } from './records/order.ts';
import { ownedProductRecord, productDetailRecord } from './records/products.ts';
import { returnRecord } from './records/returns.ts';
import { shipmentRecord } from './records/shipment.ts';
import { transferInDetail, transferOutRecord } from './records/transfers.ts';
import type { HistoryEntry } from './types.ts';
import type { World } from './world/state.ts';

/** An activity row with the Pacific day (yyyy-MM-dd) it belongs to. */
export type DatedActivity = InventoryActivity & { activityDate: string };

/**
 * The complete current state as spec records, grouped by operation and scope: what a warehouse that
 * synced everything must hold. Exactly what the list operations would return, with these choices:
 * - shipmentUpdates: every small-world shipment of the account (current state); `shipmentUpdatedAt`
 *   gives each container's last-update instant (ISO UTC), the time Shipments/Updates windows on.
 *   Volume shipments are not included (they are static; see `volume`).
 * - ownedInventory: every row Inventories/Owned lists with onHandOnly=false (rows of emptied,
 *   dropped sub-inventories are absent; rows with qtyOnHand 0 that are not dropped are present).
 * - inventoryActivity: every row with activity, tagged with its day.
 * - transfersIn: the detail (header, lines, notes) of every IN, whatever its status.
 * - orderDetails: every order of the account, including unshipped and cancelled ones.
 * - history: every change in order, `{at (ISO UTC), kind, key, change}`; kinds are e.g.
 *   order.created, shipment.created, shipment.tracking_event, shipment.status_changed,
 *   return.created, return.status_changed, transfer_in.status_changed, transfer_in.received,
 *   transfer_out.status_changed, invoice.created, invoice.payment, inventory.changed, product.created.
 */
export interface SimTruth {
  /** Simulated now, ISO UTC. */
  now: string;
  timezone: string;
  suppliers: string[];
  accounts: string[];
  shipmentUpdates: Record<string, ShipmentUpdate[]>;
  shipmentUpdatedAt: Record<string, string>;
  returns: Record<string, ShipmentReturn[]>;
  ownedInventory: Record<string, OwnedInventory[]>;
  inventoryActivity: Record<string, DatedActivity[]>;
  transfersIn: Record<string, TransferInDetail[]>;
  transfersOut: Record<string, TransferOut[]>;
  invoices: Record<string, Invoice[]>;
  ownedProducts: Record<string, OwnedProduct[]>;
  productDetails: Record<string, ProductDetail[]>;
  orderDetails: Record<string, OrderDetail[]>;
  volume: { shipments: number };
  history: HistoryEntry[];
}

/** Builds the truth of the world as it is now (the caller makes the world catch up first). */
export function buildTruth(world: World, now: number, volumeShipments: number): SimTruth {
  const z = world.zone;
  const bySupplier = <T>(make: (supplierId: string) => T[]) =>
    Object.fromEntries(world.suppliers.map((s) => [s.id, make(s.id)]));
  const byAccount = <T>(make: (account: string) => T[]) =>
    Object.fromEntries(world.accounts.map((a) => [a.number, make(a.number)]));
  // Each supplier's (account's) records among `rows`, as the API answers them.
  const perSupplier = <R extends { supplierId: string }, T>(
    rows: ReadonlyMap<unknown, R>,
    record: (world: World, row: R) => T,
  ) => bySupplier((id) => [...rows.values()].filter((r) => r.supplierId === id).map((r) => record(world, r)));
  const perAccount = <R extends { accountNumber: string }, T>(
    rows: ReadonlyMap<unknown, R>,
    record: (world: World, row: R) => T,
  ) =>
    byAccount((acc) =>
      [...rows.values()].filter((r) => r.accountNumber === acc).map((r) => record(world, r)),
    );
  const shipments = [...world.shipments.values()].sort((a, b) => a.updatedAt - b.updatedAt);
  return {
    now: new Date(now).toISOString(),
    timezone: z.timeZone,
    suppliers: world.suppliers.map((s) => s.id),
    accounts: world.accounts.map((a) => a.number),
    shipmentUpdates: byAccount((acc) =>
      shipments.filter((s) => s.accountNumber === acc).map((s) => shipmentRecord(s, z)),
    ),
    shipmentUpdatedAt: Object.fromEntries(
      shipments.map((s) => [s.containerId, new Date(s.updatedAt).toISOString()]),
    ),
    returns: perAccount(world.returns, returnRecord),
    ownedInventory: bySupplier((id) =>
      [...world.inventory.values()]
        .filter((r) => r.supplierId === id && !r.dropped)
        .map((r) => ownedInventoryRecord(world, r)),
    ),
    inventoryActivity: bySupplier((id) =>
      [...world.activity.values()].flatMap((a) => {
        const row = world.inventory.get(a.key);
        return row && row.supplierId === id
          ? [{ ...activityRecord(world, row, a), activityDate: a.day }]
          : [];
      }),
    ),
    transfersIn: perSupplier(world.transfersIn, transferInDetail),
    transfersOut: perSupplier(world.transfersOut, transferOutRecord),
    invoices: perAccount(world.invoices, invoiceRecord),
    ownedProducts: perSupplier(world.products, ownedProductRecord),
    productDetails: perSupplier(world.products, productDetailRecord),
    orderDetails: perAccount(world.orders, orderDetailRecord),
    volume: { shipments: volumeShipments },
    history: [...world.history],
  };
}
