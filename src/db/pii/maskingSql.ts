import type { Mark } from './marking.ts';
import { SAFE_MEMBER_NAMES } from './marking.ts';
import { PATTERN_ARRAY, sqlText, sqlTextArray } from './patterns.ts';

/**
 * The SQL of the masking views (src/db/schema/masked.ts): how each column is read, and what every
 * view joins for it. Pure text: the functions it names are in schema sync (the custom migrations
 * `*_pii_masking_functions.sql` and `*_pii_allow_list_functions.sql`).
 */

/** A column of a table as its masking view reads it. */
export interface MaskedColumn {
  name: string;
  /** The SQL type (`text`, `jsonb`, ...). */
  type: string;
  mark: Exclude<Mark, 'closed'>;
  /** Part of the table's primary key: a safe key column is read as stored, so lookups use its index. */
  key: boolean;
}

const PADS = 'p.inner_pad, p.outer_pad';
const TEXT_TYPES = new Set(['text', 'character varying', 'character']);

/** The SQL reading `column` of alias `t` masked as its mark says (`c` holds the lists, `p` the key's pads). */
export function maskedExpression(column: MaskedColumn): string {
  const ref = `t."${column.name}"`;
  switch (column.mark) {
    case 'json':
      return `sync.pii_mask_json(${ref}, c.allowed, c.patterns, ${PADS})`;
    case 'value':
    case 'derived':
      return column.type === 'jsonb'
        ? `to_jsonb(sync.pii_hash(${ref}::text, ${PADS}))`
        : `sync.pii_hash(${ref}, ${PADS})`;
    case 'safe':
      // The second pass: a value marked safe that looks like an e-mail, phone or street line is hashed.
      if (!TEXT_TYPES.has(column.type) || column.key) return ref;
      return `CASE WHEN sync.pii_looks_personal(${ref}, c.patterns) THEN sync.pii_hash(${ref}, ${PADS}) ELSE ${ref} END`;
  }
}

/**
 * The body of the masking view of `schema.table`. The lists come in as constants of a subquery
 * (`c`: the JSON members read as received, the personal value patterns), the key as its HMAC pads
 * computed once per query (`p`: null without a key, which makes every masked value null).
 */
export function maskedViewSql(schema: string, table: string, columns: readonly MaskedColumn[]): string {
  const select = columns
    .map((c) => {
      const expression = maskedExpression(c);
      return expression === `t."${c.name}"` ? expression : `${expression} AS "${c.name}"`;
    })
    .join(', ');
  const lists = `SELECT ${sqlText(JSON.stringify(Object.fromEntries(SAFE_MEMBER_NAMES.map((n) => [n, true]))))}::jsonb AS allowed, ${sqlTextArray(PATTERN_ARRAY)} AS patterns`;
  const key =
    'SELECT sync.hmac_pad(k.key, 54) AS inner_pad, sync.hmac_pad(k.key, 92) AS outer_pad FROM sync.pii_key k LIMIT 1';
  return `SELECT ${select} FROM ${schema}."${table}" t CROSS JOIN (${lists}) c LEFT JOIN (${key}) p ON true`;
}
