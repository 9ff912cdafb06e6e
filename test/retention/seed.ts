import type { Pool } from 'pg';

const DAY = 86_400_000;

/** A time `days` before `now`. */
export function daysAgo(now: Date, days: number): Date {
  return new Date(now.getTime() - days * DAY);
}

/**
 * Writes bookkeeping rows on both sides of every default rule (runs 30 days, events 90, attempts 30,
 * rejected 90, backfill windows 90), each named for what the pruner must do with it, plus a year-old
 * inventory_history version that is the product and never pruned.
 */
export async function seedBookkeeping(pool: Pool, now: Date): Promise<void> {
  const at = (days: number) => daysAgo(now, days);
  // Runs: shipments/A1 has old runs, the cursor's last run among them, and a recent one; returns/A2
  // only old runs (its newest must stay); inventory/S1 old runs, its newest failed.
  const runs: Array<[number, string, string, number, string]> = [
    [1, 'shipments', 'A1', 45, 'succeeded'], // prune
    [2, 'shipments', 'A1', 40, 'succeeded'], // keep: the cursor's last_run_id
    [3, 'shipments', 'A1', 35, 'failed'], // prune
    [4, 'shipments', 'A1', 1, 'succeeded'], // keep: recent
    [5, 'returns', 'A2', 60, 'succeeded'], // prune
    [6, 'returns', 'A2', 50, 'succeeded'], // keep: the newest of returns/A2
    [7, 'inventory', 'S1', 70, 'succeeded'], // prune
    [8, 'inventory', 'S1', 65, 'failed'], // keep: the newest of inventory/S1
  ];
  for (const [id, stream, scope, days, status] of runs) {
    await pool.query(
      `INSERT INTO sync.runs (id, stream, scope, started_at, finished_at, status) VALUES ($1, $2, $3, $4, $4, $5)`,
      [id, stream, scope, at(days), status],
    );
  }
  await pool.query(
    `INSERT INTO sync.cursors (stream, scope, last_run_id, last_success_at) VALUES
       ('shipments', 'A1', 2, $1), ('returns', 'A2', 6, $2)`,
    [at(40), at(50)],
  );
  // A rejected record whose run goes keeps its row (run_id set null).
  await pool.query(
    `INSERT INTO sync.rejected_records (run_id, stream, scope, reason, fingerprint, rejected_at, last_seen_at) VALUES
       (1, 'shipments', 'A1', 'old problem', 'f-old', $1, $1),
       (3, 'shipments', 'A1', 'seen lately', 'f-recent', $1, $2)`,
    [at(100), at(10)],
  );

  await pool.query(
    `INSERT INTO sync.webhook_endpoints (id, url, secret) VALUES ('ep_a', 'https://a.example', 'whsec_x'),
       ('ep_b', 'https://b.example', 'whsec_y')`,
  );
  const events: Array<[string, number, number | null, boolean]> = [
    // id, detected days ago, dispatched days ago, suppressed
    ['ev_dispatched_old', 100, 100, false], // prune, with its states and attempts
    ['ev_suppressed_old', 95, null, true], // prune
    ['ev_undispatched_old', 120, null, false], // keep: the relay has not fanned it out
    ['ev_dispatched_lately', 130, 5, false], // keep: its 90 days count from the dispatch
    ['ev_pending_old', 110, 110, false], // keep: pending delivery to ep_b
    ['ev_replay_pending_old', 105, 105, false], // keep: a replay of it is pending
    ['ev_recent', 10, 10, false], // keep
  ];
  for (const [id, days, dispatched, suppressed] of events) {
    await pool.query(
      `INSERT INTO sync.events (id, type, subject_kind, subject_key, occurred_at, detected_at, data, suppressed, dispatched_at)
       VALUES ($1, 'shipment.delivered', 'shipment', $1, $2, $2, '{}', $3, $4)`,
      [id, at(days), suppressed, dispatched === null ? null : at(dispatched)],
    );
  }
  await pool.query(
    `INSERT INTO sync.webhook_delivery_states (endpoint_id, event_id, series, status, created_at, finished_at) VALUES
       ('ep_a', 'ev_dispatched_old', '', 'succeeded', $1, $1),
       ('ep_a', 'ev_pending_old', '', 'succeeded', $2, $2),
       ('ep_b', 'ev_pending_old', '', 'pending', $2, NULL),
       ('ep_a', 'ev_replay_pending_old', '', 'succeeded', $3, $3),
       ('ep_a', 'ev_replay_pending_old', 'rpl_1', 'pending', $4, NULL),
       ('ep_a', 'ev_recent', '', 'succeeded', $4, $4)`,
    [at(100), at(110), at(105), at(10)],
  );
  await pool.query(
    `INSERT INTO sync.webhook_deliveries (id, endpoint_id, event_id, status, attempted_at, created_at) VALUES
       (1, 'ep_a', 'ev_dispatched_old', 'succeeded', $1, $1),
       (2, 'ep_a', 'ev_recent', 'failed', $2, $2),
       (3, 'ep_a', 'ev_recent', 'succeeded', $3, $3),
       (4, 'ep_b', 'ev_pending_old', 'failed', $4, $4)`,
    [at(100), at(40), at(5), at(2)],
  );

  await pool.query(
    `INSERT INTO sync.detail_requests (stream, scope, record_key, reason, requested_at, attempts, quarantined_at) VALUES
       ('orders', 'A1', 'W-old-quarantine', 'shipment', $1, 10, $1),
       ('orders', 'A1', 'W-new-quarantine', 'shipment', $2, 10, $2),
       ('orders', 'A1', 'W-still-wanted', 'shipment', $3, 3, NULL)`,
    [at(100), at(10), at(200)],
  );
  await pool.query(
    `INSERT INTO sync.backfill_windows (backfill_id, stream, scope, window_start, window_end, finished_at) VALUES
       ('bf_old', 'invoices', 'A1', $1, $1, $1), ('bf_new', 'invoices', 'A1', $2, $2, $2)`,
    [at(100), at(10)],
  );
  await pool.query(
    `INSERT INTO fulfillment.inventory_history (supplier_id, warehouse_code, sub_inventory_code, sku, valid_from, valid_to)
     VALUES ('S1', 'DAL', '', 'SKU-1', $1, $2)`,
    [at(400), at(380)],
  );
}

/** What each table holds, by a key that names the row: compared before and after a prune. */
export async function bookkeepingKeys(pool: Pool) {
  const read = async (sql: string) => (await pool.query<{ k: string }>(sql)).rows.map((r) => String(r.k));
  return {
    runs: await read('SELECT id::text AS k FROM sync.runs ORDER BY id'),
    events: await read('SELECT id AS k FROM sync.events ORDER BY id'),
    states: await read(
      `SELECT endpoint_id || '/' || event_id || '/' || series AS k FROM sync.webhook_delivery_states ORDER BY 1`,
    ),
    attempts: await read('SELECT id::text AS k FROM sync.webhook_deliveries ORDER BY id'),
    rejected: await read(
      `SELECT fingerprint || ':' || coalesce(run_id::text, 'null') AS k FROM sync.rejected_records ORDER BY 1`,
    ),
    detailRequests: await read('SELECT record_key AS k FROM sync.detail_requests ORDER BY 1'),
    backfillWindows: await read('SELECT backfill_id AS k FROM sync.backfill_windows ORDER BY 1'),
    inventoryHistory: await read('SELECT sku AS k FROM fulfillment.inventory_history ORDER BY 1'),
  };
}
