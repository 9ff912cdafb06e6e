import type { Queryable } from '../db/queryable.ts';
import type { DerivedEvent } from './types.ts';

/** The channel of `pg_notify` announcements; the payload is the event id. */
export const EVENTS_CHANNEL = 'fulfillment_events';

/** Events per INSERT statement: one JSON parameter each, bounded for memory. */
const CHUNK = 2000;

export interface WriteEventsOptions {
  stream: string | null;
  scope: string | null;
  runId?: string | number | bigint | null;
  /** Stored but not delivered (first loads and backfills, unless the user asked for delivery). */
  suppressed: boolean;
  /**
   * Also `pg_notify` each inserted id from inside the transaction (default true). Postgres holds
   * notifications until COMMIT and drops them on ROLLBACK, so listeners hear exactly the committed
   * events and no caller can forget an after-commit step.
   */
  notify?: boolean;
}

/**
 * Inserts events into the outbox `sync.events` in the caller's transaction, one multi-row
 * statement per chunk with `ON CONFLICT (id) DO NOTHING`: an id already stored (re-run, retry,
 * crash replay) is skipped. Returns the ids actually inserted.
 */
export async function writeEvents(
  tx: Queryable,
  events: readonly DerivedEvent[],
  options: WriteEventsOptions,
): Promise<string[]> {
  const inserted: string[] = [];
  for (let i = 0; i < events.length; i += CHUNK) {
    const chunk = uniqueById(events.slice(i, i + CHUNK));
    const rows = chunk.map((event) => ({
      id: event.id,
      type: event.type,
      subject_kind: event.subject.kind,
      subject_key: event.subject.key,
      occurred_at: event.occurredAt,
      detected_at: event.detectedAt,
      data: event.data,
    }));
    const result = await tx.query<{ id: string }>(
      `INSERT INTO sync.events
         (id, type, subject_kind, subject_key, occurred_at, detected_at, data, stream, scope, run_id, suppressed)
       SELECT x.id, x.type, x.subject_kind, x.subject_key, x.occurred_at, x.detected_at, x.data, $2::text, $3::text, $4::bigint, $5::boolean
         FROM jsonb_to_recordset($1::jsonb) AS x(id text, type text, subject_kind text, subject_key text,
              occurred_at timestamptz, detected_at timestamptz, data jsonb)
       ON CONFLICT (id) DO NOTHING
       RETURNING id`,
      [JSON.stringify(rows), options.stream, options.scope, runIdParam(options.runId), options.suppressed],
    );
    inserted.push(...result.rows.map((row) => row.id));
  }
  if (options.notify !== false) await notifyEvents(tx, inserted);
  return inserted;
}

/** Announces ids on `fulfillment_events` (in a transaction: delivered at COMMIT only). */
export async function notifyEvents(db: Queryable, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(`SELECT pg_notify('${EVENTS_CHANNEL}', id) FROM unnest($1::text[]) AS id`, [ids]);
}

/** The same event twice in one statement would make ON CONFLICT fail ("cannot affect row a second time"). */
function uniqueById(events: readonly DerivedEvent[]): DerivedEvent[] {
  const byId = new Map<string, DerivedEvent>();
  for (const event of events) if (!byId.has(event.id)) byId.set(event.id, event);
  return [...byId.values()];
}

function runIdParam(runId: WriteEventsOptions['runId']): string | null {
  return runId === undefined || runId === null ? null : String(runId);
}
