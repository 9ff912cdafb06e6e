import { createHash } from 'node:crypto';

/**
 * Key of a child record that carries no id of its own (IN notes, order holds and messages): a
 * sha256 hex of the identifying members as a JSON array (null for a missing member). JSON quotes
 * each part, so no value can pass for two parts ('a|b','c' vs 'a','b|c'), and it keeps a missing
 * part apart from an empty one. Deterministic, so the same note or hold always lands on the same row.
 */
export function contentKey(parts: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return createHash('sha256')
    .update(JSON.stringify(parts.map((p) => p ?? null)))
    .digest('hex');
}
