import { ANALYTICS_MARKS } from './marks/analytics.ts';
import { FULFILLMENT_TABLE_MARKS } from './marks/fulfillment.ts';
import { SAFE_JSON_MEMBERS } from './marks/jsonMembers.ts';
import type { DirectMarks, Mark, TableMarks } from './marks/types.ts';
import { FULFILLMENT_VIEW_MARKS } from './marks/views.ts';

export type { DirectMarks, Mark } from './marks/types.ts';

/**
 * What a reader role (FULFILLMENT_READER_ROLE) may read: the one list, in src/db/pii/marks/. A
 * reader reads a relation or column only once it is marked there; everything else, a relation or
 * column added by a later migration or by hand included, stays closed to it (column grants, no
 * default privileges). From these marks come the masking views of `fulfillment_masked`, the
 * column grants of `grant-reader`, the JSON members a reader reads in clear, and the PII marker of
 * the column comments (and so of the data dictionary and the event schemas). Events and webhooks
 * are not masked: their consumers are the operator's own systems.
 */

/** The marks that make a column personal: read only masked (fulfillment_masked). */
export type PiiKind = Exclude<Mark, 'safe' | 'closed'>;

/** Per table of schema fulfillment (`schema.table`): column -> mark. Read through fulfillment_masked. */
export const MASKED_TABLE_MARKS: ReadonlyMap<string, ReadonlyMap<string, Mark>> = new Map(
  Object.entries(FULFILLMENT_TABLE_MARKS).map(([relation, marks]) => [relation, parseMarks(relation, marks)]),
);

/** Per relation a reader reads as it is (views of fulfillment, analytics): column -> safe or closed. */
export const DIRECT_MARKS: ReadonlyMap<string, ReadonlyMap<string, Mark>> = new Map(
  Object.entries({ ...FULFILLMENT_VIEW_MARKS, ...ANALYTICS_MARKS }).map(([relation, marks]) => [
    relation,
    parseMarks(relation, marks satisfies DirectMarks),
  ]),
);

/** The marks a grant reads: the lists above unless a caller (a test) adds to them. */
export interface ReaderMarks {
  masked: ReadonlyMap<string, ReadonlyMap<string, Mark>>;
  direct: ReadonlyMap<string, ReadonlyMap<string, Mark>>;
}

/** The marks of src/db/pii/marks/, with `extra` relations read as they are added. */
export function readerMarks(extra: Readonly<Record<string, DirectMarks>> = {}): ReaderMarks {
  const added = Object.entries(extra).map(
    ([relation, marks]) => [relation, parseMarks(relation, marks)] as const,
  );
  return { masked: MASKED_TABLE_MARKS, direct: new Map([...DIRECT_MARKS, ...added]) };
}

/** How column `column` of `qualified` (`schema.table`) is marked, if it is. */
export function markOf(qualified: string, column: string): Mark | undefined {
  return (MASKED_TABLE_MARKS.get(qualified) ?? DIRECT_MARKS.get(qualified))?.get(column);
}

/** How `column` of `qualified` is personal, if it is (read only masked). */
export function piiKindOf(qualified: string, column: string): PiiKind | undefined {
  const mark = MASKED_TABLE_MARKS.get(qualified)?.get(column);
  return mark === undefined || mark === 'safe' || mark === 'closed' ? undefined : mark;
}

/** The word that marks a personal column in its comment; `grant-reader` and the tests look for it. */
export const PII_MARKER = 'PII';

const MARKER_TEXT: Readonly<Record<PiiKind, string>> = {
  value: `${PII_MARKER} (consumer personal data): a reader role reads a keyed hash of it (fulfillment_masked).`,
  json: `${PII_MARKER} inside (JSON as received, whose members may be names, e-mails, phones, street lines or free text): a reader role reads it with every member not known to be safe, and every value that looks like an e-mail, phone or street line, replaced by a keyed hash (fulfillment_masked).`,
  derived: `${PII_MARKER}-derived (an unkeyed hash over personal data): a reader role reads a keyed hash of it (fulfillment_masked).`,
};

/** The sentence appended to a personal column's comment. */
export function piiMarkerText(kind: PiiKind): string {
  return MARKER_TEXT[kind];
}

/** A member or column name as the masking compares it: lowercased, without _ and - (as sync.pii_mask_json does). */
export function normalisedMemberName(name: string): string {
  return name.toLowerCase().replace(/[_-]/g, '');
}

/** The JSON members a reader reads as received (src/db/pii/marks/jsonMembers.ts), normalised and sorted. */
export const SAFE_MEMBER_NAMES: readonly string[] = [
  ...new Set(words(SAFE_JSON_MEMBERS).map(normalisedMemberName)),
].sort();

function parseMarks(relation: string, marks: TableMarks): ReadonlyMap<string, Mark> {
  const parsed = new Map<string, Mark>();
  for (const [mark, columns] of Object.entries(marks) as [Mark, string][]) {
    for (const column of words(columns)) {
      // Two marks for one column would make the stricter one depend on the order of the lists.
      if (parsed.has(column)) throw new Error(`src/db/pii/marks: ${relation}.${column} is marked twice`);
      parsed.set(column, mark);
    }
  }
  return parsed;
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((word) => word.length > 0);
}
