import type { Queryable } from '../../db/queryable.ts';

/** succeeded; failed (a retry follows); gave_up (no retry: schedule exhausted or endpoint disabled). */
export type AttemptStatus = 'succeeded' | 'failed' | 'gave_up';

/** A recorded attempt, for tests and the CLI. */
export interface DeliveryRecord {
  endpointId: string;
  eventId: string;
  series: string;
  attempt: number;
  status: string;
  responseCode: number | null;
  durationMs: number | null;
  error: string | null;
  responseBody: string | null;
}

/** The attempts of an event (all endpoints), in order. */
export async function listAttempts(db: Queryable, eventId: string): Promise<DeliveryRecord[]> {
  const { rows } = await db.query(
    `SELECT endpoint_id, event_id, series, attempt, status, response_code, duration_ms, error, response_body
       FROM sync.webhook_deliveries WHERE event_id = $1 ORDER BY id`,
    [eventId],
  );
  return rows.map((row) => ({
    endpointId: String(row.endpoint_id),
    eventId: String(row.event_id),
    series: String(row.series),
    attempt: Number(row.attempt),
    status: String(row.status),
    responseCode: row.response_code === null ? null : Number(row.response_code),
    durationMs: row.duration_ms === null ? null : Number(row.duration_ms),
    error: (row.error as string | null) ?? null,
    responseBody: (row.response_body as string | null) ?? null,
  }));
}
