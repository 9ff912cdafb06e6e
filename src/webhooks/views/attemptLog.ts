import type { Queryable } from '../../db/queryable.ts';
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

/** How much of a stored response body (up to MAX_RESPONSE_BYTES) `webhooks attempts` shows. */
export const SHOWN_BODY_BYTES = 1024;

/** One recorded attempt as `webhooks attempts` shows it. */
export interface AttemptEntry {
  /** The attempt's id: what `webhooks resend` takes. */
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
  /** The first SHOWN_BODY_BYTES of what the receiver answered (whole characters); null: no answer. */
  responseBody: string | null;
  /** Whether the stored body goes on past `responseBody`. */
  responseBodyTruncated: boolean;
  attemptedAt: Date | null;
  nextAttemptAt: Date | null;
}

/** Recorded attempts (sync.webhook_deliveries) matching the filter, newest first. */
export async function listAttemptLog(db: Queryable, filter: AttemptFilter): Promise<AttemptEntry[]> {
  const { rows } = await db.query(
    `SELECT id, endpoint_id, event_id, series, attempt, status, response_code, duration_ms, error,
            left(response_body, $6) AS response_body, length(response_body) > $6 AS longer,
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
      SHOWN_BODY_BYTES,
    ],
  );
  return rows.map((row) => {
    const body = row.response_body === null ? null : headBytes(String(row.response_body), SHOWN_BODY_BYTES);
    return {
      id: Number(row.id),
      endpointId: String(row.endpoint_id),
      eventId: String(row.event_id),
      series: String(row.series),
      attempt: Number(row.attempt),
      status: row.status as AttemptStatus,
      responseCode: row.response_code === null ? null : Number(row.response_code),
      durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
      error: (row.error as string | null) ?? null,
      responseBody: body?.text ?? null,
      responseBodyTruncated: Boolean(row.longer) || (body?.cut ?? false),
      attemptedAt: row.attempted_at ? new Date(row.attempted_at as string) : null,
      nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at as string) : null,
    };
  });
}

/** The longest start of `text` within `maxBytes` of UTF-8 that ends on a whole character. Pure. */
export function headBytes(text: string, maxBytes: number): { text: string; cut: boolean } {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += Buffer.byteLength(char);
    if (bytes > maxBytes) return { text: text.slice(0, end), cut: true };
    end += char.length;
  }
  return { text, cut: false };
}
