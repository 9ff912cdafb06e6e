import { createHash } from 'node:crypto';
import type { Queryable } from '../db/queryable.ts';
import type { RejectionKind } from '../db/schema/sync.ts';
import { stableJson } from './normalize.ts';

/**
 * `sync.rejected_records`: what the engine could not store as received. The same problem seen again
 * (a bad record re-read on every run) updates its row (`occurrences`, `last_seen_at`, `run_id`, and
 * the latest `raw` and `reason`) instead of adding a row, so the table does not grow without bound.
 */

/** One rejection to record. `raw` must be storable (see `storableRaw`). */
export interface Rejection {
  kind: RejectionKind;
  key?: string | undefined;
  reason: string;
  raw: unknown;
}

/**
 * Identity of a problem: its kind, the record's key and the shape of its reason. The record as
 * received is left out when the key can be read, since a bad record's other fields keep moving
 * (a wrong-typed inventory row whose other quantities change is still the same problem); it
 * stands in for the key only when there is none.
 */
export function rejectionFingerprint(r: Rejection): string {
  const keyed = r.key !== undefined && r.key !== '';
  const identity = keyed
    ? [r.kind, r.key, reasonShape(r.reason)]
    : [r.kind, null, reasonShape(r.reason), r.raw ?? null];
  return createHash('sha256').update(stableJson(identity)).digest('hex');
}

/**
 * A reason without the values it quotes: reasons embed the offending value or a size
 * (`outside the 32-bit integer range (3000000001)`, `key is 81920 bytes long`, an HTTP status, a
 * repaired element's index), which may move from one read to the next while the problem stays.
 */
export function reasonShape(reason: string): string {
  return reason.replace(/\d+/g, '#');
}

/** Records rejections in the caller's transaction, one statement; answers how many were new. */
export async function recordRejections(
  tx: Queryable,
  stream: string,
  scope: string,
  runId: number,
  rejections: readonly Rejection[],
  at: Date,
): Promise<number> {
  if (rejections.length === 0) return 0;
  const byFingerprint = new Map<string, { rejection: Rejection; count: number }>();
  for (const rejection of rejections) {
    const fingerprint = rejectionFingerprint(rejection);
    const seen = byFingerprint.get(fingerprint);
    // The latest form of the record is the one kept, as on a later run.
    if (seen) byFingerprint.set(fingerprint, { rejection, count: seen.count + 1 });
    else byFingerprint.set(fingerprint, { rejection, count: 1 });
  }
  const entries = [...byFingerprint.entries()];
  const res = await tx.query<{ inserted: boolean }>(
    `INSERT INTO sync.rejected_records AS r
       (run_id, stream, scope, kind, record_key, reason, raw, fingerprint, occurrences, rejected_at, last_seen_at)
     SELECT $1, $2, $3, u.kind, u.k, u.reason, u.raw, u.f, u.n, $4, $4
       FROM unnest($5::text[], $6::text[], $7::text[], $8::jsonb[], $9::text[], $10::int[])
         AS u(kind, k, reason, raw, f, n)
     ON CONFLICT (stream, scope, fingerprint) DO UPDATE SET
       occurrences = r.occurrences + EXCLUDED.occurrences, last_seen_at = EXCLUDED.last_seen_at,
       run_id = EXCLUDED.run_id, raw = EXCLUDED.raw, reason = EXCLUDED.reason
     RETURNING (xmax = 0) AS inserted`,
    [
      runId,
      stream,
      scope,
      at,
      entries.map(([, e]) => e.rejection.kind),
      entries.map(([, e]) => e.rejection.key ?? null),
      entries.map(([, e]) => e.rejection.reason),
      entries.map(([, e]) => JSON.stringify(e.rejection.raw ?? null)),
      entries.map(([f]) => f),
      entries.map(([, e]) => e.count),
    ],
  );
  return res.rows.filter((r) => r.inserted).length;
}
