import type { Pool } from 'pg';

/** Per table, the key of each stored row (as the event subject key) and the value a rule compares. */
const STATE_QUERIES = {
  inventory: `SELECT supplier_id || ':' || warehouse_code || ':' || sub_inventory_code || ':' || sku AS key,
                     sku AS detail, qty_available_to_sell::float8 AS value FROM fulfillment.inventory`,
  invoice: 'SELECT invoice_number AS key, balance_due::float8 AS value FROM fulfillment.invoices',
  return: 'SELECT ship_return_id::text AS key, processing_status_code AS value FROM fulfillment.returns',
  transfer_out: `SELECT supplier_id || ':' || order_number AS key, status_code AS value
                   FROM fulfillment.transfers_out`,
  shipment: 'SELECT container_id AS key, status_code AS value FROM fulfillment.shipments',
} as const;
export type StateKind = keyof typeof STATE_QUERIES;

/** One stored row's compared value; `detail` is the SKU for inventory (its threshold). */
export interface StoredState {
  value: unknown;
  detail?: string;
}

/**
 * The value each stored row held after every sync, per table, in order: the states the event
 * rules compared, read from the warehouse tables rather than from the events under test. A key
 * absent from a snapshot was not stored yet.
 */
export class StoredStates {
  private readonly byKind = new Map<StateKind, Array<Map<string, StoredState>>>();

  /** Records the current stored values of every table; call after each sync. */
  async snapshot(pool: Pool): Promise<void> {
    for (const [kind, sql] of Object.entries(STATE_QUERIES) as Array<[StateKind, string]>) {
      const { rows } = await pool.query<{ key: string; value: unknown; detail?: string }>(sql);
      const list = this.byKind.get(kind) ?? [];
      list.push(new Map(rows.map((row) => [row.key, { value: row.value, detail: row.detail }])));
      this.byKind.set(kind, list);
    }
  }

  /**
   * Per key, how many steps between consecutive differing stored states (the first state seen
   * counting as a step from null) satisfy `counts(before, after, state)`: the number of events
   * the sequence should have yielded.
   */
  expected(
    kind: StateKind,
    counts: (before: unknown, after: unknown, state: StoredState) => boolean,
  ): Map<string, number> {
    const expected = new Map<string, number>();
    const last = new Map<string, unknown>();
    for (const snapshot of this.byKind.get(kind) ?? []) {
      for (const [key, state] of snapshot) {
        const before = last.has(key) ? last.get(key) : null;
        if (last.has(key) && before === state.value) continue;
        if (counts(before, state.value, state)) expected.set(key, (expected.get(key) ?? 0) + 1);
        last.set(key, state.value);
      }
    }
    return expected;
  }

  /** Expected status_changed (or balance_changed) counts: every change between two stored states of a key. */
  statusChanges(kind: StateKind): Map<string, number> {
    return this.expected(kind, (before, after) => before !== null && before !== after);
  }
}
