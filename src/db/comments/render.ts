import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { OWN_COLUMN_TEXT } from './ownColumns.ts';
import { SPEC_FIELD_TEXT } from './specFields.ts';
import { SPEC_ORDER_FIELD_TEXT } from './specOrderFields.ts';
import { SYNC_TABLES } from './syncTables.ts';
import { FULFILLMENT_TABLES, type TableText } from './tables.ts';

/** One COMMENT ON statement: its target as written in SQL (quoted) and its text. */
export interface Comment {
  target: string;
  text: string;
}

const TABLES: Readonly<Record<string, TableText>> = { ...FULFILLMENT_TABLES, ...SYNC_TABLES };
const FIELDS: Readonly<Record<string, string>> = {
  ...OWN_COLUMN_TEXT,
  ...SPEC_FIELD_TEXT,
  ...SPEC_ORDER_FIELD_TEXT,
};

const BREAKPOINT = '\n--> statement-breakpoint\n';

/**
 * The comments of every table and column of `tables`, from the description tables; `missing`
 * names what has no description yet (add it to src/db/comments/).
 */
export function collectComments(tables: readonly PgTable[]): { comments: Comment[]; missing: string[] } {
  const comments: Comment[] = [];
  const missing: string[] = [];
  for (const table of tables) {
    const config = getTableConfig(table);
    const qualified = `${config.schema ?? 'public'}.${config.name}`;
    const described = TABLES[qualified];
    const tableTarget = `TABLE ${quote(config.schema ?? 'public')}.${quote(config.name)}`;
    if (described) comments.push({ target: tableTarget, text: described.text });
    else missing.push(qualified);
    for (const column of config.columns) {
      const text = described?.columns?.[column.name] ?? FIELDS[column.name];
      if (text)
        comments.push({ target: `COLUMN ${tableTargetName(tableTarget)}.${quote(column.name)}`, text });
      else missing.push(`${qualified}.${column.name}`);
    }
  }
  return { comments, missing };
}

/** Renders comments as a drizzle migration body (statements separated by breakpoints). */
export function renderCommentsSql(comments: readonly Comment[]): string {
  return `${comments.map((c) => `COMMENT ON ${c.target} IS ${literal(c.text)};`).join(BREAKPOINT)}\n`;
}

/** Reads back the COMMENT ON statements this module wrote: target -> text (last one wins). */
export function parseCommentsSql(sql: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of sql.matchAll(/^COMMENT ON ((?:TABLE|COLUMN) .+?) IS '((?:[^']|'')*)';$/gm)) {
    found.set(match[1]!, match[2]!.replaceAll("''", "'"));
  }
  return found;
}

/** The comments that `applied` (from earlier migrations) does not already set to the same text. */
export function pendingComments(wanted: readonly Comment[], applied: ReadonlyMap<string, string>): Comment[] {
  return wanted.filter((c) => applied.get(c.target) !== c.text);
}

function tableTargetName(tableTarget: string): string {
  return tableTarget.slice('TABLE '.length);
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
