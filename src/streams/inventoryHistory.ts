import type { Queryable } from '../db/queryable.ts';
import { inventoryHistory } from '../db/schema/inventory.ts';
import { tableInfo } from '../sync/columns.ts';
import { upsertRows } from '../sync/store.ts';
import type { Row } from '../sync/types.ts';

/**
 * SCD type 2 for `inventory_history`, pure part. Every inventory row the engine inserted or updated
 * (a vanished row arrives zeroed, as an update) closes the open history row of its key at the
 * detection time and opens a new one from that time with the row's values. A vanished row thus
 * leaves a closed row with its last quantities and an open zero row as successor: "what was on
 * hand at time t" is always answerable, and the history's open rows equal the current table.
 */

/** The inventory key: what one history series is about. */
export const INVENTORY_KEY = ['supplier_id', 'warehouse_code', 'sub_inventory_code', 'sku'] as const;

/** What one write of history does: which open series to close, which rows to open. */
export interface HistoryPlan {
  /** Keys (INVENTORY_KEY columns) whose open row gets `valid_to = at`. */
  close: Row[];
  /** New open rows: the inventory values plus `valid_from = at`, `valid_to = null`. */
  open: Row[];
}

/**
 * Plans the history rows for the inventory rows changed at `at`. `columns` are the history table's
 * value columns (the engine-maintained ones excluded); each new row copies them from the inventory row.
 */
export function planHistory(changed: readonly Row[], at: Date, columns: readonly string[]): HistoryPlan {
  const close: Row[] = [];
  const open: Row[] = [];
  const seen = new Set<string>();
  // Last write per key wins: one key changes once per transaction.
  for (const row of [...changed].reverse()) {
    const key = INVENTORY_KEY.map((c) => String(row[c] ?? '')).join('\u0001');
    if (seen.has(key)) continue;
    seen.add(key);
    const keyRow: Row = {};
    for (const c of INVENTORY_KEY) keyRow[c] = row[c] ?? '';
    close.push(keyRow);
    const next: Row = { ...keyRow };
    for (const c of columns) if (!(c in next) && c in row) next[c] = row[c];
    next.valid_from = at;
    next.valid_to = null;
    open.push(next);
  }
  return { close: close.reverse(), open: open.reverse() };
}

/** Columns of the history table that a version copies from the inventory row (not its own bookkeeping). */
function valueColumns(historyColumns: Iterable<string>): string[] {
  return [...historyColumns].filter((c) => c !== 'valid_from' && c !== 'valid_to' && c !== 'run_id');
}

/** A key's open version may have been opened by a clock ahead of ours: the next one starts 1 ms after it. */
const AFTER_OPEN_VERSION = "interval '1 millisecond'";

/**
 * Versions the changed inventory rows in `inventory_history`, inside the caller's transaction:
 * closes each key's open version and opens a new one, both at `at` (the run's clock: the detection
 * time, equal for every row of one snapshot write), and names the run (`runId`) that wrote it.
 *
 * Workers' clocks disagree: an open version may start at or after `at` (written by a worker whose
 * clock is ahead). History stays ordered instead of failing on the one-open-version index: that
 * version is closed, and the new one opened, 1 ms after its start. Every version is kept.
 */
export async function writeInventoryHistory(
  tx: Queryable,
  changed: readonly Row[],
  at: Date,
  runId?: number,
): Promise<void> {
  if (changed.length === 0) return;
  const columns = valueColumns(tableInfo(inventoryHistory).types.keys());
  const plan = planHistory(changed, at, columns);
  const keyParams = INVENTORY_KEY.map((c) => plan.close.map((r) => String(r[c])));
  const closed = await tx.query<{ s: string; w: string; i: string; u: string; valid_to: Date }>(
    `UPDATE ${tableInfo(inventoryHistory).qualified} h
        SET valid_to = greatest($5::timestamptz, h.valid_from + ${AFTER_OPEN_VERSION})
       FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS k(s, w, i, u)
      WHERE h.valid_to IS NULL AND h.supplier_id = k.s AND h.warehouse_code = k.w
        AND h.sub_inventory_code = k.i AND h.sku = k.u
  RETURNING k.s, k.w, k.i, k.u, h.valid_to`,
    [...keyParams, at],
  );
  const startOf = new Map(closed.rows.map((r) => [[r.s, r.w, r.i, r.u].join('\u0001'), r.valid_to]));
  const open = plan.open.map((r) => ({
    ...r,
    valid_from: startOf.get(INVENTORY_KEY.map((c) => String(r[c])).join('\u0001')) ?? at,
    run_id: runId ?? null,
  }));
  await upsertRows(tx, inventoryHistory, open, [...INVENTORY_KEY, 'valid_from'], at);
}
