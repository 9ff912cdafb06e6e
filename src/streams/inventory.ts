import type { FulfillmentClient } from '../api/fulfillmentClient.ts';
import {
  EXTRA_INVENTORY_WAREHOUSE_CODES,
  type OwnedInventory,
  WAREHOUSE_CODES,
} from '../api/records/index.ts';
import { inventory } from '../db/schema/inventory.ts';
import { camelOf, recordEntity } from '../sync/rows.ts';
import type { PlanInput, Row, RowContext, Scope, StreamDefinition, Window } from '../sync/types.ts';
import { INVENTORY_KEY, writeInventoryHistory } from './inventoryHistory.ts';
import { inventorySnapshotWhere, keepPartRows, splitInventoryWindow } from './inventoryParts.ts';

/**
 * inventory: a full snapshot of Inventories/Owned per supplier (the scope) in one call, read in
 * parts (warehouse, sub-inventory, SKU: inventoryParts.ts) only when an answer is too large;
 * diffed against the stored rows. A stored row the snapshot no longer returns is
 * zeroed and stamped `vanished_at`, never deleted nor silently kept; every change (vanishing
 * included) is versioned in `inventory_history` (SCD type 2, see inventoryHistory.ts).
 */

/** Every warehouse an owned-inventory row may name (spec 1 and 2.8). */
export const INVENTORY_WAREHOUSES: readonly string[] = [
  ...WAREHOUSE_CODES,
  ...EXTRA_INVENTORY_WAREHOUSE_CODES,
];

const QUANTITY_COLUMNS = [
  'qty_on_hand',
  'qty_on_orders',
  'qty_on_ins',
  'qty_available_to_sell',
  'qty_available_to_promise',
] as const;

/**
 * One snapshot of the supplier's whole inventory (one call), or one per listed warehouse; snapshots
 * never move a cursor.
 */
export function planInventoryWindows(
  input: Pick<PlanInput, 'now'>,
  warehouses?: readonly string[],
): Window[] {
  const snapshot = (filter?: Record<string, string>): Window => ({
    kind: 'snapshot',
    start: input.now,
    end: input.now,
    ...(filter ? { filter } : {}),
  });
  if (!warehouses) return [snapshot()];
  return warehouses.map((warehouseCode) => snapshot({ warehouseCode }));
}

/**
 * The row stored for one that vanished from its snapshot: quantities 0 (in the columns and in
 * `raw`, so the record's next appearance is compared with zero and announced as restocked) and
 * `vanished_at` set once. An already-vanished row comes back unchanged, so re-syncs write nothing.
 */
export function zeroVanished(stored: Row, at: Date): Row {
  const alreadyZero = QUANTITY_COLUMNS.every((c) => stored[c] === 0) && stored.vanished_at != null;
  if (alreadyZero) return stored;
  const row: Row = { ...stored, vanished_at: stored.vanished_at ?? at };
  const raw: Record<string, unknown> =
    stored.raw && typeof stored.raw === 'object' ? { ...(stored.raw as Record<string, unknown>) } : {};
  for (const c of QUANTITY_COLUMNS) {
    row[c] = 0;
    raw[camelOf(c)] = 0;
  }
  row.raw = raw;
  delete row.synced_at;
  return row;
}

/** The key of an owned-inventory row that failed validation, when its key fields can be read. */
export function inventoryKeyOfRejected(raw: unknown, ctx: RowContext): Row | undefined {
  if (!raw || typeof raw !== 'object') return undefined;
  const record = raw as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : undefined);
  const key: Row = {
    supplier_id: ctx.scope.id,
    warehouse_code: text(record.warehouseCode),
    sub_inventory_code: text(record.subInventoryCode),
    sku: text(record.sku),
  };
  // Without a SKU or warehouse a row names no stored row: nothing to protect, so unreadable.
  if (!key.sku || !key.warehouse_code || key.sub_inventory_code === undefined) return undefined;
  return key;
}

/** The snapshot's scope in the table: the supplier's rows, narrowed to the part's filter. */
export const snapshotWhere: (scope: Scope, window: Window) => Row = inventorySnapshotWhere;

/** The inventory stream (docs/configuration.md, streams). */
export const inventoryStream: StreamDefinition<
  OwnedInventory,
  Pick<FulfillmentClient, 'listOwnedInventory'>
> = {
  name: 'inventory',
  scopeKind: 'supplier',
  subjectKind: 'inventory',
  planWindows: (input) => planInventoryWindows(input),
  splitWindow: (window, args) => splitInventoryWindow(window, args, INVENTORY_WAREHOUSES),
  fetchWindow: async ({ client, scope, window }) => {
    const sku = window.filter?.sku;
    if (sku !== undefined) {
      // Warehouse and SKU are alternatives (spec 4.5): ask by SKU, keep the part's own rows.
      const answer = await client.listOwnedInventory({ supplierId: scope.id, sku, onHandOnly: false });
      return { ...answer, ...keepPartRows(answer, window), apiCalls: 1 };
    }
    // onHandOnly=false: a row with nothing on hand but stock on orders or INs is still inventory,
    // and must not look vanished.
    const answer = await client.listOwnedInventory({
      supplierId: scope.id,
      warehouseCode: window.filter?.warehouseCode,
      subInventoryCode: window.filter?.subInventoryCode,
      onHandOnly: false,
    });
    return { ...answer, apiCalls: 1 };
  },
  entity: {
    ...recordEntity(inventory, INVENTORY_KEY, (_record, ctx) => ({
      supplier_id: ctx.scope.id,
      vanished_at: null,
    })),
    keyOfRejected: inventoryKeyOfRejected,
    snapshot: {
      where: snapshotWhere,
      vanished: (stored, ctx) => zeroVanished(stored, ctx.now),
      goneColumn: 'vanished_at',
    },
  },
  afterWrite: async ({ tx, changes, now, runId }) => {
    await writeInventoryHistory(
      tx,
      changes.map((c) => c.row),
      now,
      runId,
    );
  },
};
