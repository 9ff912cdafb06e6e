/**
 * How a reader role (FULFILLMENT_READER_ROLE) reads a column:
 * - `safe`: known to hold nothing personal: readable (values that look like an e-mail, phone or
 *   street line are still hashed where the masking views read them, and counted by `pii-audit`);
 * - `value`, `json`, `derived`: personal, or possibly so: readable only masked, through the views
 *   of `fulfillment_masked` (tables of schema `fulfillment` only);
 * - `closed`: never readable.
 */
export type Mark = 'safe' | 'value' | 'json' | 'derived' | 'closed';

/** The marks of a table's columns: per mark, the column names separated by white space. */
export type TableMarks = Partial<Record<Mark, string>>;

/**
 * The marks of a relation the reader reads as it is (a view, a materialized view, a table of schema
 * analytics): its readable columns, and those it must not read, separated by white space.
 */
export interface DirectMarks {
  safe: string;
  closed?: string;
}
