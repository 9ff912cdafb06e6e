import type pg from 'pg';

/**
 * Duplicate events in the outbox `sync.events` (src/db/schema/events.ts).
 *
 * A duplicate is a row that announces again the change the previous event of the same `type` about
 * the same subject (`subject_kind`, `subject_key`, in `seq` order) already announced: the same
 * `data->'changes'` (the field changes) leading to the same `data->'current'` (the record state).
 * `id` cannot tell: it is derived from the dedupe key, so a change derived twice with another
 * dedupe transition (a retried or replayed window whose episode marker fell back to detectedAt)
 * gets a fresh id; `seq`, `detected_at`, `run_id`, `stream` and `scope` differ between copies by
 * design, so they are left out. Only the previous event of the type is compared because a record
 * can legitimately make the same change again after changing back (stock 10 -> 8, 8 -> 10,
 * 10 -> 8: three real events, the first and third equal).
 */
const DUPLICATES = `
  SELECT id, seq, type, subject_kind, subject_key, run_id, detected_at, suppressed, earlier_id FROM (
    SELECT e.*,
           lag(data) OVER subject_type AS earlier_data,
           lag(id) OVER subject_type AS earlier_id
      FROM sync.events e
    WINDOW subject_type AS (PARTITION BY type, subject_kind, subject_key ORDER BY seq)) x
   WHERE earlier_data->'changes' = data->'changes' AND earlier_data->'current' = data->'current'`;

/** How many events repeat the previous event of their type and subject (a change stored 3 times counts 2). */
export async function duplicateEventCount(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(`SELECT count(*) AS n FROM (${DUPLICATES}) d`);
  return Number(rows[0]?.n ?? 0);
}

/** The first duplicates, readable: type, subject, and both copies' id, run and detection time. */
export async function duplicateEventSamples(pool: pg.Pool, limit = 3): Promise<string[]> {
  const { rows } = await pool.query<Record<string, string>>(
    `SELECT d.type, d.subject_kind || ' ' || d.subject_key AS subject,
            d.earlier_id || ' (run ' || coalesce(o.run_id::text, '-') || ', ' || o.detected_at::text || ')' AS first,
            d.id || ' (run ' || coalesce(d.run_id::text, '-') || ', ' || d.detected_at::text || ')' AS again
       FROM (${DUPLICATES}) d JOIN sync.events o ON o.id = d.earlier_id
      ORDER BY d.seq LIMIT $1`,
    [limit],
  );
  return rows.map((r) => `${r.type} ${r.subject}: ${r.first} then again ${r.again}`);
}
