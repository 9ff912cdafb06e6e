import type { PrunedTable } from './rules.ts';

/**
 * The SQL of each prune rule. `$1` is the cutoff; a batch takes `$2` rows. Every batch locks its rows
 * with SKIP LOCKED, so the pruner never waits on a row a sync, the relay or a delivery holds, and it
 * walks an index on the column its rule reads, oldest first.
 */
interface RuleSql {
  /** FROM and WHERE of the rows that may go (alias `t`). */
  candidates: string;
  /** The column the rule reads: batches go oldest first by it, and `status` shows its minimum. */
  ageColumn: string;
}

/**
 * Runs: older than the cutoff, but never the newest row of a stream and scope (status, lag and the
 * sync_health view read it) nor the run a cursor names as its last (sync.cursors.last_run_id).
 * "Newer" is a strictly later started_at, read from runs_stream_scope_started_at_idx. The cursors'
 * runs are a NOT IN, which Postgres reads once into a hash: as a NOT EXISTS under the batch's LIMIT
 * it was a nested loop over every cursor for every candidate (800 cursors at 100 pairs: two thirds
 * of a batch's time).
 */
const RUNS = `sync.runs t
   WHERE t.started_at < $1
     AND EXISTS (SELECT 1 FROM sync.runs n
                  WHERE n.stream = t.stream AND n.scope = t.scope AND n.started_at > t.started_at)
     AND t.id NOT IN (SELECT c.last_run_id FROM sync.cursors c WHERE c.last_run_id IS NOT NULL)`;

/**
 * Events: fanned out by the relay before the cutoff (or suppressed, never to be, and detected before
 * it), and pending delivery to no endpoint in any series (relay, replay, recover). The age counts
 * from the dispatch: an event the relay only reached lately (an outage, a re-enabled endpoint)
 * keeps its full retention. The detected_at bound lets the index narrow the walk.
 */
export const EVENT_CANDIDATES = `sync.events t
   WHERE t.detected_at < $1
     AND (t.dispatched_at < $1 OR (t.dispatched_at IS NULL AND t.suppressed))
     AND NOT EXISTS (SELECT 1 FROM sync.webhook_delivery_states s
                      WHERE s.event_id = t.id AND s.status = 'pending')`;

/** Tables with a rule of their own; delivery states go only with their event (EVENTS_DELETE_SQL). */
export type RuledTable = Exclude<PrunedTable, 'sync.webhook_delivery_states'>;

export const RULES: Readonly<Record<RuledTable, RuleSql>> = {
  'sync.webhook_deliveries': {
    candidates: 'sync.webhook_deliveries t WHERE t.created_at < $1',
    ageColumn: 'created_at',
  },
  'sync.events': { candidates: EVENT_CANDIDATES, ageColumn: 'detected_at' },
  'sync.runs': { candidates: RUNS, ageColumn: 'started_at' },
  'sync.rejected_records': {
    candidates: 'sync.rejected_records t WHERE t.last_seen_at < $1',
    ageColumn: 'last_seen_at',
  },
  'sync.detail_requests': {
    candidates: 'sync.detail_requests t WHERE t.quarantined_at IS NOT NULL AND t.quarantined_at < $1',
    ageColumn: 'quarantined_at',
  },
  'sync.backfill_windows': {
    candidates: 'sync.backfill_windows t WHERE t.finished_at < $1',
    ageColumn: 'finished_at',
  },
};

/** One batch of a plain table: up to $2 candidates, locked without waiting, deleted by ctid. */
export function batchDeleteSql(table: RuledTable): string {
  return `WITH doomed AS (
            SELECT t.ctid AS row_id FROM ${RULES[table].candidates}
             ORDER BY t.${RULES[table].ageColumn} LIMIT $2
             FOR UPDATE OF t SKIP LOCKED)
          DELETE FROM ${table} WHERE ctid = ANY(ARRAY(SELECT row_id FROM doomed))`;
}

/**
 * A batch of events, first chosen and locked: up to $2 candidates, oldest first, skipping rows
 * someone holds (a replay inserting a delivery for an event holds it until it commits). Their ids
 * go to EVENTS_DELETE_SQL, in the same transaction.
 */
export const EVENTS_LOCK_SQL = `SELECT t.id FROM ${EVENT_CANDIDATES}
   ORDER BY t.detected_at LIMIT $2
   FOR UPDATE OF t SKIP LOCKED`;

/**
 * The locked events ($1, their ids) that still have no pending delivery, deleted with their
 * delivery states and attempts in one statement (so each is counted; the foreign keys would
 * cascade them anyway). The check is made again here, in a statement that starts after the locks
 * were taken: a replay or recover that committed a pending delivery while EVENTS_LOCK_SQL was
 * choosing (after its snapshot, before its lock) is seen now and keeps its event; one that comes
 * later waits for this transaction, and finds the event gone.
 */
export const EVENTS_DELETE_SQL = `WITH doomed AS (
    SELECT t.id FROM sync.events t
     WHERE t.id = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM sync.webhook_delivery_states s
                        WHERE s.event_id = t.id AND s.status = 'pending')),
  attempts AS (DELETE FROM sync.webhook_deliveries d USING doomed WHERE d.event_id = doomed.id RETURNING 1),
  states AS (DELETE FROM sync.webhook_delivery_states s USING doomed WHERE s.event_id = doomed.id RETURNING 1),
  gone AS (DELETE FROM sync.events e USING doomed WHERE e.id = doomed.id RETURNING 1)
  SELECT (SELECT count(*) FROM gone)::int AS events, (SELECT count(*) FROM attempts)::int AS attempts,
         (SELECT count(*) FROM states)::int AS states`;

/** How many rows a table's rule would remove now (dry run); events' states and attempts counted apart. */
export function countSql(table: RuledTable): string {
  return `SELECT count(*)::int AS n FROM ${RULES[table].candidates}`;
}

/** Delivery states and attempts that go with the events a dry run would remove ($2: the attempts' cutoff or null). */
export const EVENT_DEPENDANTS_COUNT_SQL = `WITH doomed AS (SELECT t.id FROM ${EVENT_CANDIDATES})
  SELECT (SELECT count(*) FROM sync.webhook_delivery_states s JOIN doomed ON s.event_id = doomed.id)::int AS states,
         (SELECT count(*) FROM sync.webhook_deliveries d JOIN doomed ON d.event_id = doomed.id
           WHERE $2::timestamptz IS NULL OR d.created_at >= $2)::int AS attempts`;

/** The column each table's age is read from for "oldest row kept" (`status`); indexed where large. */
export const AGE_COLUMN: Readonly<Record<PrunedTable, string>> = {
  ...Object.fromEntries(Object.entries(RULES).map(([table, rule]) => [table, rule.ageColumn])),
  'sync.webhook_delivery_states': 'created_at',
} as Record<PrunedTable, string>;

/** The oldest row a table keeps now, by the column its rule reads (null: empty or none prunable). */
export function oldestSql(table: PrunedTable): string {
  return `SELECT min(${AGE_COLUMN[table]}) AS oldest FROM ${table}`;
}
