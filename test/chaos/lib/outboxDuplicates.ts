import type pg from 'pg';

/**
 * Duplicate events in the outbox. `sync.events.id` is the primary key and is a hash of
 * `type|subject key|transition` (src/events/makeEvent.ts), written with ON CONFLICT (id) DO NOTHING,
 * so the same id can never be stored twice. A duplicate is therefore the same change announced
 * under two ids: two rows with the same `type`, `subject_kind`, `subject_key` and `data` (the record
 * before, the record after and the field changes). That is what a replay would write when a re-run
 * derives again a change whose event (and rows) were already committed: a repeatable transition's
 * episode marker falls back to the run's detectedAt (src/events/episode.ts), so its id differs. A
 * record does not legitimately repeat the very same before/after pair, since its records carry
 * their upstream times.
 *
 * Answers the number of surplus rows (a change stored three times counts 2).
 */
export async function duplicateEvents(pool: pg.Pool): Promise<number> {
  const res = await pool.query<{ n: string }>(
    `SELECT coalesce(sum(copies - 1), 0) AS n FROM (
       SELECT count(*) AS copies FROM sync.events
        GROUP BY type, subject_kind, subject_key, data
       HAVING count(*) > 1) d`,
  );
  return Number(res.rows[0]?.n ?? 0);
}
