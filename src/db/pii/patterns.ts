/**
 * Value shapes that count as personal wherever they turn up, whatever the column or JSON member
 * they are in: the second pass of the masking (a value of this shape in a column or member marked
 * safe is hashed all the same) and what `pii-audit` and `grant-reader` count. Postgres regular
 * expressions (ARE), matched case-insensitively (`~*`). They aim at what a consumer's data looks
 * like in a US fulfillment feed and stay clear of what the warehouse holds besides: ISO dates,
 * ZIP+4 codes, SKUs, UPCs, tracking numbers and URLs, order numbers like `SO-100-1234`.
 *
 * A bare run of digits (`5551234567`) is not taken for a phone: it is what order numbers, UPCs and
 * tracking numbers look like. Such a value in a JSON member nobody marked is hashed anyway (the
 * allow-list); in a column or member marked safe it stays readable.
 */
export const PERSONAL_PATTERNS = {
  /** An e-mail address anywhere in the value. Needs an `@`. */
  email: String.raw`[[:alnum:]._%+-]+@[[:alnum:]-]+(\.[[:alnum:]-]+)*\.[[:alpha:]]{2,}`,
  /**
   * A phone number: US `555-0123`, `555-123-4567`, `(555) 123-4567`, `555.123.4567`, `+1 555 123
   * 4567`, or international `+44 20 7946 0958`. Needs a digit.
   */
  phone: [
    String.raw`(^|[^[:alnum:]-])(\+?1[ .-]?)?((\(\d{3}\) ?|\d{3}[ .-])\d{3}[ .-]|\d{3}-)\d{4}($|[^[:alnum:]-])`,
    String.raw`\+\d{1,3}[ .-]?\(?\d{1,4}\)?([ .-]?\d{2,4}){2,4}($|[^[:alnum:]])`,
  ].join('|'),
  /**
   * A street line: a house number, one to four words, a street suffix (`12 North Cedar Lane`,
   * `4500 Oak Ave`); a post-office box (`PO Box 12`); an apartment or suite (`Apt 4B`, `Suite 200`).
   * Needs a digit.
   */
  street: [
    String.raw`\m\d{1,6}[[:alpha:]]?(\s+\S+){1,4}\s+(street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|terrace|ter|circle|cir|parkway|pkwy|highway|hwy|place|pl|square|sq|way)\M`,
    String.raw`\mp\.?\s?o\.?\s+box\s+\d`,
    String.raw`\m(apt|apartment|suite|ste)\.?\s*#?\s*\d`,
  ].join('|'),
} as const;

/** The kinds of personal value the patterns find. */
export type PersonalShape = keyof typeof PERSONAL_PATTERNS;

/** The kinds in the order reports show them. */
export const PERSONAL_SHAPES: readonly PersonalShape[] = ['email', 'phone', 'street'];

/**
 * The patterns as `sync.pii_looks_personal(value, patterns)` takes them: e-mail first (tried only on
 * values with an `@`), then phone and street (tried only on values with a digit). Those cheap
 * tests first make the second pass cost a third of what the bare expressions do.
 */
export const PATTERN_ARRAY: readonly string[] = PERSONAL_SHAPES.map((shape) => PERSONAL_PATTERNS[shape]);

/** A SQL text[] literal of `values` (quotes doubled; standard_conforming_strings keeps backslashes). */
export function sqlTextArray(values: readonly string[]): string {
  return `ARRAY[${values.map(sqlText).join(', ')}]::text[]`;
}

/** A SQL string literal. */
export function sqlText(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
