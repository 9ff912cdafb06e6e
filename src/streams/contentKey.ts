import { createHash } from 'node:crypto';

/**
 * Key of a child record that carries no id of its own (IN notes, order holds and messages): a
 * sha256 hex of the identifying members joined by '|' (nulls as ''). Deterministic, so the same
 * note or hold always lands on the same row.
 */
export function contentKey(parts: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return createHash('sha256')
    .update(parts.map((p) => (p === null || p === undefined ? '' : String(p))).join('|'))
    .digest('hex');
}
