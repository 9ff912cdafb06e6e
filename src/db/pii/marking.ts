/**
 * Which warehouse columns hold personal data (PII) of consumers, and how a BI reader gets them
 * masked. This is the one list: the column comments (and so the data dictionary and the event
 * schemas) carry the marker below, the masking views of schema `fulfillment_masked` are generated
 * from it, and `grant-reader` / FULFILLMENT_READER_ROLE keeps a reader off every relation of schema
 * `fulfillment` whose comments carry the marker. Events and webhooks are not masked: their
 * consumers are the operator's own systems.
 *
 * - `value`: the whole value is personal (a name, an e-mail, a phone, a street line, free text a
 *   consumer wrote): the reader reads a keyed hash of it.
 * - `members`: JSON that carries personal members (the record as received): the reader reads it
 *   with those members replaced by keyed hashes, every other member as received.
 * - `derived`: not personal itself but computed from personal data without a key (content_hash is
 *   an unkeyed SHA-1 of raw, which would let anyone confirm a guessed e-mail): keyed-hashed too.
 */
export type PiiKind = 'value' | 'members' | 'derived';

/** Personal columns per table (`schema.table` -> column -> kind). City, state, postal code and country are kept. */
export const PII_COLUMNS: Readonly<Record<string, Readonly<Record<string, PiiKind>>>> = {
  'fulfillment.orders': {
    notification_email: 'value',
    notification_phone: 'value',
    gift_message: 'value',
    shipping_instructions: 'value',
    vas_order_personalizations: 'value',
    packages: 'members',
    contents: 'members',
    trackings: 'members',
    notes: 'members',
    billings: 'members',
    account_payable_headers: 'members',
    account_payable_lines: 'members',
    raw: 'members',
    content_hash: 'derived',
  },
  'fulfillment.order_lines': {
    vas_order_personalizations: 'value',
    raw: 'members',
  },
  'fulfillment.order_addresses': {
    first_name: 'value',
    middle_name: 'value',
    last_name: 'value',
    company_name: 'value',
    address1: 'value',
    address2: 'value',
    address3: 'value',
    raw: 'members',
  },
  'fulfillment.returns': {
    consumer_first_name: 'value',
    consumer_last_name: 'value',
    consumer_address1: 'value',
    consumer_address2: 'value',
    notification_email_address: 'value',
    notification_phone_number: 'value',
    vas_order_personalizations: 'value',
    raw: 'members',
    content_hash: 'derived',
  },
  'fulfillment.return_lines': {
    vas_order_personalizations: 'value',
    raw: 'members',
  },
};

/** The word that marks a personal column in its comment; `grant-reader` and the tests look for it. */
export const PII_MARKER = 'PII';

const MARKER_TEXT: Readonly<Record<PiiKind, string>> = {
  value: `${PII_MARKER} (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).`,
  members: `${PII_MARKER} inside (consumer names, e-mails, phones, street lines): a reader role reads it with those members replaced by keyed hashes (fulfillment_masked).`,
  derived: `${PII_MARKER}-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).`,
};

/** How `column` of `qualified` (`schema.table`) is personal, if it is. */
export function piiKindOf(qualified: string, column: string): PiiKind | undefined {
  return PII_COLUMNS[qualified]?.[column];
}

/** The sentence appended to a personal column's comment. */
export function piiMarkerText(kind: PiiKind): string {
  return MARKER_TEXT[kind];
}

/**
 * JSON member names (normalised) that are personal wherever they appear in a
 * `members` column: the `value` columns' own names as the API spells them (notificationEmail is
 * notification_email). Members the spec does not detail are caught by `PII_MEMBER_PARTS` too.
 */
export function piiMemberNames(): string[] {
  const names = new Set<string>();
  for (const columns of Object.values(PII_COLUMNS)) {
    for (const [column, kind] of Object.entries(columns)) {
      if (kind === 'value') names.add(normalisedMemberName(column));
    }
  }
  return [...names].sort();
}

/**
 * Parts of normalised member names that make a member personal wherever it appears, for members
 * the spec does not name (billings, notes and the other undetailed arrays of the order detail may
 * carry a bill-to contact): e-mails, phones, person names, street lines. Plain substrings, matched
 * with LIKE (a regular expression costs ten times more per member on every masked read).
 */
export const PII_MEMBER_PARTS: readonly string[] = [
  'mail',
  'phone',
  'mobile',
  'fax',
  'firstname',
  'lastname',
  'middlename',
  'fullname',
  'consumername',
  'recipientname',
  'contactname',
  'buyername',
  'billtoname',
  'shiptoname',
  'soldtoname',
  'delivertoname',
  'street',
  'addressline',
];

/** A member or column name as the masking compares it: lowercased, without _ and - (as sync.pii_mask_json does). */
export function normalisedMemberName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}
