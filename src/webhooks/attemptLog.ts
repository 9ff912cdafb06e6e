import type { Queryable } from '../db/queryable.ts';
import type { AttemptStatus } from './deliveries.ts';

/** The statuses an attempt can be listed by. */
export const ATTEMPT_STATUSES: readonly AttemptStatus[] = ['succeeded', 'failed', 'gave_up'];

/** Which attempts `webhooks attempts` lists; every filter is optional. */
export interface AttemptFilter {
  endpointId?: string | undefined;
  eventId?: string | undefined;
  status?: AttemptStatus | undefined;
  /** Attempts made at or after this time. */
  since?: Date | undefined;
  /** At most this many, newest first. */
  limit: number;
}

/** One recorded attempt as `webhooks attempts` shows it (the response body is left out: it can be 2 KiB). */
export interface AttemptEntry {
  id: number;
  endpointId: string;
  eventId: string;
  /** '' for the relay's delivery, replay_<id> or recover_<id> otherwise. */
  series: string;
  attempt: number;
  status: AttemptStatus;
  responseCode: number | null;
  durationMs: number | null;
  error: string | null;
  attemptedAt: Date | null;
  nextAttemptAt: Date | null;
}

/** Recorded attempts (sync.webhook_deliveries) matching the filter, newest first. */
export async function listAttemptLog(db: Queryable, filter: AttemptFilter): Promise<AttemptEntry[]> {
  const { rows } = await db.query(
    `SELECT id, endpoint_id, event_id, series, attempt, status, response_code, duration_ms, error,
            attempted_at, next_attempt_at
       FROM sync.webhook_deliveries
      WHERE ($1::text IS NULL OR endpoint_id = $1)
        AND ($2::text IS NULL OR event_id = $2)
        AND ($3::text IS NULL OR status = $3)
        AND ($4::timestamptz IS NULL OR attempted_at >= $4)
      ORDER BY attempted_at DESC NULLS LAST, id DESC
      LIMIT $5`,
    [
      filter.endpointId ?? null,
      filter.eventId ?? null,
      filter.status ?? null,
      filter.since ?? null,
      filter.limit,
    ],
  );
  return rows.map((row) => ({
    id: Number(row.id),
    endpointId: String(row.endpoint_id),
    eventId: String(row.event_id),
    series: String(row.series),
    attempt: Number(row.attempt),
    status: row.status as AttemptStatus,
    responseCode: row.response_code === null ? null : Number(row.response_code),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    error: (row.error as string | null) ?? null,
    attemptedAt: row.attempted_at ? new Date(row.attempted_at as string) : null,
    nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at as string) : null,
  }));
}
