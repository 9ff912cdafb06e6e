import { createHash } from 'node:crypto';

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

/** JSON with object keys sorted, so equal values always serialise identically. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      const obj = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(obj)
          .sort()
          .map((k) => [k, obj[k]]),
      );
    }
    return v;
  });
}
