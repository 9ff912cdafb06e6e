import { createHash } from 'node:crypto';
import type { Queryable } from '../db/queryable.ts';
import type { RejectionKind } from '../db/schema/sync.ts';
import { stableJson } from './normalize.ts';

/**
 * `sync.rejected_records`: what the engine could not store as received. The same problem seen again
 * (a bad record re-read on every run) updates its row's `occurrences` and `last_seen_at` instead of
 * adding a row, so the table does not grow without bound.
 */

/** One rejection to record. `raw` must be storable (see `storableRaw`). */
export interface Rejection {
  kind: RejectionKind;
  key?: string | undefined;
  reason: string;
  raw: unknown;
}

/** Identity of a problem: kind, key, reason and the record as received. */
export function rejectionFingerprint(r: Rejection): string {
  return createHash('sha256')
    .update(stableJson([r.kind, r.key ?? null, r.reason, r.raw ?? null]))
    .digest('hex');
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
    if (seen) seen.count += 1;
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
       run_id = EXCLUDED.run_id
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
