import type { Mark } from '../pii/marking.ts';

/** The schema of the masking views (src/db/schema/masked.ts). */
export const MASKED_SCHEMA = 'fulfillment_masked';

const MASKED_COLUMN_TEXT: Readonly<Record<Exclude<Mark, 'closed'>, string>> = {
  safe: '',
  value:
    'Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.',
  json: 'Masked: members the allow-list names (codes, quantities, SKUs, dates, statuses, city, state, postal code, country) as received; every other member, at any depth, and every value that looks like an e-mail, phone or street line, replaced by its HMAC-SHA-256 (as the masked columns are).',
  derived:
    'Masked: HMAC-SHA-256 (key in sync.pii_key) of the stored hash; still changes when the record does.',
};

/** The table a masking view masks (`fulfillment.orders` for `fulfillment_masked.orders`), if it is one. */
export function maskedBaseOf(qualified: string): string | undefined {
  const prefix = `${MASKED_SCHEMA}.`;
  return qualified.startsWith(prefix) ? `fulfillment.${qualified.slice(prefix.length)}` : undefined;
}

/** The comment of a masking view, from the table it masks. */
export function maskedRelationText(base: string, baseText: string): string {
  return `View for reader roles: ${base} as a reader may read it (the columns marked in src/db/pii/marks/; personal ones as keyed hashes, values that look like an e-mail, phone or street line hashed too). ${baseText}`;
}

/** The comment of a column of a masking view: the table column's text, then how it is masked. */
export function maskedColumnText(baseText: string, mark: Mark | undefined): string {
  const masked = mark && mark !== 'closed' ? MASKED_COLUMN_TEXT[mark] : '';
  return masked ? `${baseText} ${masked}` : baseText;
}
