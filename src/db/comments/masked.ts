import type { PiiKind } from '../pii/marking.ts';

/** The schema of the masking views (src/db/schema/masked.ts). */
export const MASKED_SCHEMA = 'fulfillment_masked';

const MASKED_COLUMN_TEXT: Readonly<Record<PiiKind, string>> = {
  value:
    'Masked: HMAC-SHA-256 (key in sync.pii_key) of the value lowercased and trimmed, 64 hex digits; equal values hash equal in every masked view; null stays null.',
  members:
    'Masked: consumer names, e-mails, phones and street lines inside are replaced by their HMAC-SHA-256 (as the masked columns are); every other member as received.',
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
  return `View for reader roles: ${base} with consumer personal data masked (same columns; the columns marked PII there are keyed hashes here). ${baseText}`;
}

/** The comment of a column of a masking view: the table column's text, then how it is masked. */
export function maskedColumnText(baseText: string, kind: PiiKind | undefined): string {
  return kind ? `${baseText} ${MASKED_COLUMN_TEXT[kind]}` : baseText;
}
