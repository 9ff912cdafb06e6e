/**
 * The poison values: what a real misbehaving service stores and sends. Each is a pure function of the
 * value it replaces, so the same record is poisoned the same way in every answer and in the truth.
 */

/** A NUL inside the text, after its first word (so cutting at the NUL and removing it differ). */
export function withNul(text: string): string {
  const space = text.indexOf(' ');
  return space === -1 ? `${text}\u0000` : `${text.slice(0, space)}\u0000${text.slice(space)}`;
}

/** A lone high surrogate before the last character ("CarrierA" -> "Carrier\ud800A"). */
export function withLoneSurrogate(text: string): string {
  return `${text.slice(0, -1)}\ud800${text.slice(-1)}`;
}

/** Outside int32, the range of the engine's integer columns. */
export const INT_OVERFLOW = 3_000_000_000;

/** Length of the oversized key: 80 KB, far past a B-tree index entry (about 2.7 KB). */
export const OVERSIZED_KEY_LENGTH = 80 * 1024;

/** The key padded to 80 KB, starting with the real key so it stays recognisable. */
export function oversizedKey(key: string): string {
  return `${key}-`.padEnd(OVERSIZED_KEY_LENGTH, '0');
}

/** Levels of the deeply nested member. */
export const NESTING_DEPTH = 8000;

/** Name of the extra member of the deeply nested record. */
export const NESTED_MEMBER = 'extendedAttributes';

/** `{"node": {"node": ... {}}}`, `depth` objects deep, built without recursion. */
export function deeplyNested(depth: number = NESTING_DEPTH): Record<string, unknown> {
  let inner: Record<string, unknown> = {};
  for (let level = 1; level < depth; level++) inner = { node: inner };
  return inner;
}

/** The wrong-typed quantity of the poisoned inventory row. */
export const WRONG_TYPE_QUANTITY = 'lots';

/** The malformed quantity of the poisoned IN detail line. */
export const MALFORMED_QUANTITY = 'abc';

/** The malformed price of the poisoned product detail. */
export const MALFORMED_PRICE = 'n/a';
