import type { Rng } from '../rng.ts';
import type {
  Account,
  ActivityField,
  ActivityRow,
  HistoryEntry,
  InventoryRow,
  Invoice,
  Order,
  PackingSlip,
  Product,
  Return,
  Shipment,
  Supplier,
  TransferIn,
  TransferOut,
} from '../types.ts';
import type { Zone } from '../zone.ts';

/** Something planned to happen at a simulated minute (see evolve/agenda.ts). */
export type Task =
  | { kind: 'shipOrder'; orderKey: string }
  | { kind: 'releaseHold'; orderKey: string; hold: number }
  | { kind: 'trackingEvent'; containerId: string; event: number }
  | { kind: 'openReturn'; containerId: string }
  | { kind: 'returnStatus'; shipReturnId: number; status: string }
  | { kind: 'transferIn'; orderNumber: string; supplierId: string; step: string }
  | { kind: 'transferOut'; orderNumber: string; supplierId: string; status: string }
  | { kind: 'payInvoice'; invoiceNumber: string };

/** Everything the simulator knows; mutated only by evolve/ and the write routes. */
export class World {
  readonly suppliers: Supplier[] = [];
  readonly accounts: Account[] = [];
  readonly products = new Map<string, Product>();
  readonly inventory = new Map<string, InventoryRow>();
  readonly activity = new Map<string, ActivityRow>();
  readonly orders = new Map<string, Order>();
  readonly shipments = new Map<string, Shipment>();
  readonly returns = new Map<number, Return>();
  readonly transfersIn = new Map<string, TransferIn>();
  readonly transfersOut = new Map<string, TransferOut>();
  readonly invoices = new Map<string, Invoice>();
  readonly packingSlips: PackingSlip[] = [];
  readonly history: HistoryEntry[] = [];
  readonly agenda = new Map<number, Task[]>();
  /** Counters for identifiers, so numbering is deterministic. */
  readonly seq = { order: 0, shipment: 0, ret: 0, transferIn: 0, transferOut: 0, invoice: 0, product: 0 };
  /** The last simulated minute whose tick has run. */
  processedMinute = 0;

  constructor(
    readonly seed: number,
    readonly zone: Zone,
  ) {}

  /** Appends to the change history. */
  log(at: number, kind: string, key: string, change: Record<string, unknown>): void {
    this.history.push({ at: new Date(at).toISOString(), kind, key, change });
  }

  /** Plans a task for a future minute. */
  schedule(minute: number, task: Task): void {
    const due = Math.max(minute, this.processedMinute + 1);
    const list = this.agenda.get(due);
    if (list) list.push(task);
    else this.agenda.set(due, [task]);
  }

  /** Moves on-hand stock of one row and books it as inventory activity of the current day. */
  moveStock(at: number, row: InventoryRow, delta: number, field: ActivityField): number {
    const before = row.qtyOnHand;
    row.qtyOnHand = Math.max(0, before + delta);
    const moved = row.qtyOnHand - before;
    if (row.qtyOnHand > 0) row.dropped = false;
    const day = this.zone.wallDate(at);
    const key = inventoryKey(row.supplierId, row.warehouseCode, row.subInventoryCode, row.sku);
    const activityKey = `${day}|${key}`;
    let activity = this.activity.get(activityKey);
    if (!activity) {
      activity = { day, key, beginningOnHand: before, endingOnHand: before, counts: emptyCounts() };
      this.activity.set(activityKey, activity);
    }
    activity.counts[field] += Math.abs(moved);
    activity.endingOnHand = row.qtyOnHand;
    if (moved !== 0)
      this.log(at, 'inventory.changed', key, { qtyOnHand: row.qtyOnHand, delta: moved, field });
    return moved;
  }

  /** The inventory row of a key, created empty when missing. */
  stockRow(supplierId: string, warehouseCode: string, subInventoryCode: string, sku: string): InventoryRow {
    const key = inventoryKey(supplierId, warehouseCode, subInventoryCode, sku);
    let row = this.inventory.get(key);
    if (!row) {
      row = {
        supplierId,
        warehouseCode,
        subInventoryCode,
        sku,
        qtyOnHand: 0,
        qtyOnOrders: 0,
        qtyOnIns: 0,
        dropped: false,
      };
      this.inventory.set(key, row);
    }
    return row;
  }

  supplierOf(accountNumber: string): Supplier | undefined {
    const account = this.accounts.find((a) => a.number === accountNumber);
    return account ? this.suppliers.find((s) => s.id === account.supplierId) : undefined;
  }

  /** Products of a supplier that can be shipped on their own, in key order. */
  sellable(supplierId: string): Product[] {
    return [...this.products.values()].filter(
      (p) => p.supplierId === supplierId && (p.itemTypeCode === 'WINE' || p.itemTypeCode === 'GSET'),
    );
  }
}

export function inventoryKey(supplierId: string, warehouseCode: string, sub: string, sku: string): string {
  return `${supplierId}|${warehouseCode}|${sub}|${sku}`;
}

export function orderKey(accountNumber: string, orderNumber: string): string {
  return `${accountNumber}|${orderNumber}`;
}

export function productKey(supplierId: string, sku: string): string {
  return `${supplierId}|${sku}`;
}

function emptyCounts(): Record<ActivityField, number> {
  return {
    qtyReceived: 0,
    qtyTransferredIn: 0,
    qtyTransferredOut: 0,
    qtyMovedIn: 0,
    qtyMovedOut: 0,
    qtyShipped: 0,
    qtyAdjusted: 0,
    qtyDamaged: 0,
    qtyReturned: 0,
    qtyKitted: 0,
    qtyOther: 0,
  };
}

/** Seconds within a minute, so times look scanned rather than scheduled. */
export function withinMinute(minute: number, rng: Rng): number {
  return minute * 60_000 + rng.int(0, 59) * 1000;
}
