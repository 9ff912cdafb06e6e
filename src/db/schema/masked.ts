import { type SQL, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  getTableConfig,
  integer,
  jsonb,
  type PgColumn,
  type PgTable,
  pgSchema,
  text,
} from 'drizzle-orm/pg-core';
import { PII_COLUMNS, PII_MEMBER_PARTS, type PiiKind, piiMemberNames } from '../pii/marking.ts';
import { num, tz } from './columns.ts';
import { orderAddresses, orderLines, orders } from './orders.ts';
import { returnLines, returns } from './returns.ts';

/**
 * What a reader role reads instead of the tables holding consumer personal data: one view per such
 * table, same name and columns, with every column src/db/pii/marking.ts lists replaced by an
 * HMAC-SHA-256 (keyed with sync.pii_key) of its value, lowercased and trimmed, as 64 hex digits,
 * so equal e-mails or names hash equal across tables (joins, counting distinct consumers) while
 * nobody without the key can recompute one from a guess. JSON columns keep their shape, with the
 * personal members hashed. Null stays null. City, state, postal code and country stay readable.
 * The views run with their owner's rights (they read the tables and the key); the functions they
 * call are in schema sync (created by a custom migration) and take the key as an argument, so a
 * reader who could call them still could not hash a guess the same way.
 */
export const maskedSchema = pgSchema('fulfillment_masked');

/** A SQL text[] literal (the names are plain letters and digits; quotes doubled all the same). */
const textArray = (values: readonly string[]) =>
  `ARRAY[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ')}]::text[]`;
const MEMBER_ARRAY = textArray(piiMemberNames());
const PART_ARRAY = textArray(PII_MEMBER_PARTS.map((part) => `%${part}%`));

/** The SQL that masks column `name` of alias `t` as `kind` says; `p` holds the HMAC pads. */
function maskedExpression(name: string, kind: PiiKind, type: string): string {
  const column = `t."${name}"`;
  const pads = 'p.inner_pad, p.outer_pad';
  if (kind === 'members') {
    return `sync.pii_mask_json(${column}, ${MEMBER_ARRAY}, ${PART_ARRAY}, ${pads})`;
  }
  if (type === 'jsonb') return `to_jsonb(sync.pii_hash(${column}::text, ${pads}))`;
  return `sync.pii_hash(${column}, ${pads})`;
}

/** A view column builder of the same SQL type as a table column. */
function viewColumn(column: PgColumn) {
  const type = column.getSQLType();
  switch (type) {
    case 'text':
      return text(column.name);
    case 'integer':
      return integer(column.name);
    case 'bigint':
      return bigint(column.name, { mode: 'number' });
    case 'boolean':
      return boolean(column.name);
    case 'numeric':
      return num(column.name);
    case 'timestamp with time zone':
      return tz(column.name);
    case 'date':
      return date(column.name, { mode: 'string' });
    case 'jsonb':
      return jsonb(column.name);
    default:
      throw new Error(`masked views: no view column for type ${type} (${column.name})`);
  }
}

function maskedView(table: PgTable) {
  const config = getTableConfig(table);
  const qualified = `${config.schema}.${config.name}`;
  const marked = PII_COLUMNS[qualified] ?? {};
  for (const column of Object.keys(marked)) {
    if (!config.columns.some((c) => c.name === column)) {
      throw new Error(`src/db/pii/marking.ts marks ${qualified}.${column}, which does not exist`);
    }
  }
  const columns = Object.fromEntries(config.columns.map((c) => [c.name, viewColumn(c)]));
  const select = config.columns
    .map((c) => {
      const kind = marked[c.name];
      return kind ? `${maskedExpression(c.name, kind, c.getSQLType())} AS "${c.name}"` : `t."${c.name}"`;
    })
    .join(', ');
  const body: SQL = sql.raw(
    `SELECT ${select} FROM ${config.schema}."${config.name}" t LEFT JOIN (SELECT sync.hmac_pad(k.key, 54) AS inner_pad, sync.hmac_pad(k.key, 92) AS outer_pad FROM sync.pii_key k LIMIT 1) p ON true`,
  );
  return maskedSchema.view(config.name, columns).as(body);
}

export const maskedOrders = maskedView(orders);
export const maskedOrderLines = maskedView(orderLines);
export const maskedOrderAddresses = maskedView(orderAddresses);
export const maskedReturns = maskedView(returns);
export const maskedReturnLines = maskedView(returnLines);

const maskedNames = new Set(
  [orders, orderLines, orderAddresses, returns, returnLines].map((t) => {
    const config = getTableConfig(t);
    return `${config.schema}.${config.name}`;
  }),
);
for (const qualified of Object.keys(PII_COLUMNS)) {
  // A table marked personal without a masking view would leave its reader nothing to read.
  if (!maskedNames.has(qualified))
    throw new Error(`src/db/schema/masked.ts: add a masking view for ${qualified}`);
}
