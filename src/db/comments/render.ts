import { is } from 'drizzle-orm';
import {
  getMaterializedViewConfig,
  getTableConfig,
  getViewConfig,
  PgMaterializedView,
  PgTable,
} from 'drizzle-orm/pg-core';
import type { AnyView } from '../allTables.ts';
import { piiKindOf, piiMarkerText } from '../pii/marking.ts';
import { ANALYTICS_RELATIONS } from './analytics.ts';
import { maskedBaseOf, maskedColumnText, maskedRelationText } from './masked.ts';
import { OWN_COLUMN_TEXT } from './ownColumns.ts';
import { SPEC_FIELD_TEXT } from './specFields.ts';
import { SPEC_ORDER_FIELD_TEXT } from './specOrderFields.ts';
import { SYNC_TABLES } from './syncTables.ts';
import { FULFILLMENT_TABLES, type TableText } from './tables.ts';
import { FULFILLMENT_VIEWS } from './views.ts';

/** One COMMENT ON statement: its target as written in SQL (quoted) and its text. */
export interface Comment {
  target: string;
  text: string;
}

const RELATIONS: Readonly<Record<string, TableText>> = {
  ...FULFILLMENT_TABLES,
  ...SYNC_TABLES,
  ...FULFILLMENT_VIEWS,
  ...ANALYTICS_RELATIONS,
};
const FIELDS: Readonly<Record<string, string>> = {
  ...OWN_COLUMN_TEXT,
  ...SPEC_FIELD_TEXT,
  ...SPEC_ORDER_FIELD_TEXT,
};

const BREAKPOINT = '\n--> statement-breakpoint\n';

/** A table or view as the comments see it: kind, schema, name and column names. */
export interface RelationShape {
  kind: 'TABLE' | 'VIEW' | 'MATERIALIZED VIEW';
  schema: string;
  name: string;
  columns: string[];
}

/** The shape of a Drizzle table or view. */
export function relationShape(relation: PgTable | AnyView): RelationShape {
  if (is(relation, PgTable)) {
    const config = getTableConfig(relation);
    const columns = config.columns.map((c) => c.name);
    return { kind: 'TABLE', schema: config.schema ?? 'public', name: config.name, columns };
  }
  const materialized = is(relation, PgMaterializedView);
  const config = materialized ? getMaterializedViewConfig(relation) : getViewConfig(relation);
  const columns = Object.values(config.selectedFields).map((field) => (field as { name: string }).name);
  const kind = materialized ? 'MATERIALIZED VIEW' : 'VIEW';
  return { kind, schema: config.schema ?? 'public', name: config.name, columns };
}

/** The description of a table or view (`schema.name`), if there is one. */
export function relationText(qualified: string): string | undefined {
  const base = maskedBaseOf(qualified);
  if (base) {
    const baseText = RELATIONS[base]?.text;
    return baseText && maskedRelationText(base, baseText);
  }
  return RELATIONS[qualified]?.text;
}

/**
 * The description of a column: its relation's own text, else the shared one for that column name,
 * followed by the PII marker when src/db/pii/marking.ts lists the column as personal data.
 */
export function columnText(qualified: string, column: string): string | undefined {
  const base = maskedBaseOf(qualified);
  if (base) {
    const baseText = RELATIONS[base]?.columns?.[column] ?? FIELDS[column];
    return baseText && maskedColumnText(baseText, piiKindOf(base, column));
  }
  const text = RELATIONS[qualified]?.columns?.[column] ?? FIELDS[column];
  const pii = piiKindOf(qualified, column);
  return text && pii ? `${text} ${piiMarkerText(pii)}` : text;
}

/**
 * The comments of every table, view and column of `relations`, from the description tables;
 * `missing` names what has no description yet (add it to src/db/comments/).
 */
export function collectComments(relations: readonly (PgTable | AnyView)[]): {
  comments: Comment[];
  missing: string[];
} {
  const comments: Comment[] = [];
  const missing: string[] = [];
  for (const relation of relations) {
    const shape = relationShape(relation);
    const qualified = `${shape.schema}.${shape.name}`;
    const name = `${quote(shape.schema)}.${quote(shape.name)}`;
    const text = relationText(qualified);
    if (text) comments.push({ target: `${shape.kind} ${name}`, text });
    else missing.push(qualified);
    for (const column of shape.columns) {
      const described = columnText(qualified, column);
      if (described) comments.push({ target: `COLUMN ${name}.${quote(column)}`, text: described });
      else missing.push(`${qualified}.${column}`);
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
  for (const match of sql.matchAll(
    /^COMMENT ON ((?:TABLE|VIEW|MATERIALIZED VIEW|COLUMN) .+?) IS '((?:[^']|'')*)';$/gm,
  )) {
    found.set(match[1]!, match[2]!.replaceAll("''", "'"));
  }
  return found;
}

/**
 * The comments the migrations `sqls` (in order) leave in place: every COMMENT ON, minus those of a
 * view dropped later (drizzle-kit recreates a view whose definition changed: DROP, then CREATE,
 * and the drop takes its comments with it).
 */
export function appliedComments(sqls: readonly string[]): Map<string, string> {
  const applied = new Map<string, string>();
  for (const sql of sqls) {
    for (const match of sql.matchAll(/^DROP (VIEW|MATERIALIZED VIEW) ("[^"]+"\."[^"]+")/gm)) {
      const relation = match[2]!;
      for (const target of [...applied.keys()]) {
        if (target === `${match[1]} ${relation}` || target.startsWith(`COLUMN ${relation}.`))
          applied.delete(target);
      }
    }
    for (const [target, text] of parseCommentsSql(sql)) applied.set(target, text);
  }
  return applied;
}

/** The comments that `applied` (from earlier migrations) does not already set to the same text. */
export function pendingComments(wanted: readonly Comment[], applied: ReadonlyMap<string, string>): Comment[] {
  return wanted.filter((c) => applied.get(c.target) !== c.text);
}

function quote(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
