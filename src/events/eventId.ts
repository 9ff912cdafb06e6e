import { createHash } from 'node:crypto';
import { stableJson } from '../sync/normalize.ts';

/**
 * The event id from its dedupe key (type | subject key | transition): `evt_` + 32 hex chars of
 * sha256. Deterministic, so a re-run, a retry or a crash replay inserts the same id and
 * `ON CONFLICT (id) DO NOTHING` keeps exactly one.
 */
export function eventId(dedupeKey: string): string {
  return `evt_${createHash('sha256').update(dedupeKey).digest('hex').slice(0, 32)}`;
}

/** A short stable hash of a value (JSON), for transitions too long to spell in a dedupe key. */
export function stableHash(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex').slice(0, 16);
}
