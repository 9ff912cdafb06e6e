/**
 * Natural-key conventions of the warehouse (docs/warehouse.md): key columns are NOT NULL, so a
 * key part that arrives null is stored as these values. Streams map with `keyTextOf`/`keyIntOf`.
 */
export const NULL_KEY_TEXT = '';
/** Integer key parts (line and component numbers) that arrive null are stored as 0. */
export const NULL_KEY_INT = 0;

/** A text key part as stored: null/undefined become ''. */
export function keyTextOf(value: string | null | undefined): string {
  return value ?? NULL_KEY_TEXT;
}

/** An integer key part as stored: null/undefined become 0. */
export function keyIntOf(value: number | null | undefined): number {
  return value ?? NULL_KEY_INT;
}
