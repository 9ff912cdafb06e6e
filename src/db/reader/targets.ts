import type pg from 'pg';
import { type Mark, type ReaderMarks, readerMarks } from '../pii/marking.ts';
import { quoteIdent } from '../urls.ts';

/** The schema of the synced records and the views over them. */
export const READER_SCHEMA = 'fulfillment';
/** The model for questions (src/db/schema/analytics/). */
export const ANALYTICS_SCHEMA = 'analytics';
/** The masking views a masked reader reads instead of the tables of schema fulfillment. */
export const MASKED_SCHEMA = 'fulfillment_masked';
/** Every schema a reader may read something of. */
export const READER_SCHEMAS = [READER_SCHEMA, MASKED_SCHEMA, ANALYTICS_SCHEMA] as const;

/** A column of a relation in the catalog. */
export interface ReadColumn {
  name: string;
  /** As format_type spells it (`text`, `jsonb`, `character varying(20)`, ...). */
  type: string;
}

/** A relation and the columns of it a role is to read. */
export interface ReadTarget {
  schema: string;
  name: string;
  /** pg_class.relkind: r, p (tables), v (view), m (materialized view), f (foreign table). */
  kind: string;
  columns: ReadColumn[];
  /** A view of fulfillment_masked: its text and JSON columns are masked as it reads them. */
  masking: boolean;
}

/** What a role is to read, and what of the reader schemas it is not to read for want of a mark. */
export interface ReaderTargets {
  targets: ReadTarget[];
  /** Relations and columns (`schema.relation[.column]`) present but not marked: closed to a masked reader. */
  unmarked: string[];
}

interface CatalogRelation {
  schema: string;
  name: string;
  kind: string;
  columns: ReadColumn[];
}

/** Every table and view of the reader schemas, with its columns in order, as the catalog has them now. */
export async function catalogRelations(client: pg.ClientBase): Promise<CatalogRelation[]> {
  const { rows } = await client.query<CatalogRelation>(
    `SELECT n.nspname AS schema, c.relname AS name, c.relkind::text AS kind,
            coalesce(json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod))
                              ORDER BY a.attnum) FILTER (WHERE a.attnum IS NOT NULL), '[]') AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = ANY ($1) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
      GROUP BY n.nspname, c.relname, c.relkind
      ORDER BY n.nspname, c.relname`,
    [[...READER_SCHEMAS]],
  );
  return rows;
}

/** A full reader reads every column of every relation of the reader schemas. */
export function fullTargets(relations: readonly CatalogRelation[]): ReaderTargets {
  return {
    targets: relations.map((r) => ({ ...r, masking: r.schema === MASKED_SCHEMA })),
    unmarked: [],
  };
}

/**
 * A masked reader reads, of what the catalog holds now, only what src/db/pii/marks/ marks: the
 * masking views of fulfillment_masked (their marked columns), and the views of fulfillment and
 * relations of analytics marked to be read as they are (their safe columns). Never a table of
 * fulfillment. Whatever else is there is closed, and named in `unmarked` when it lacks a mark (a
 * table of fulfillment or a column of it included: its masking view cannot show it).
 */
export function markedTargets(
  relations: readonly CatalogRelation[],
  marks: ReaderMarks = readerMarks(),
): ReaderTargets {
  const targets: ReadTarget[] = [];
  const unmarked: string[] = [];
  for (const relation of relations) {
    const qualified = `${relation.schema}.${relation.name}`;
    const marked = marksOf(relation, marks);
    if (!marked) {
      unmarked.push(qualified);
      continue;
    }
    const columns: ReadColumn[] = [];
    for (const column of relation.columns) {
      const mark = marked.get(column.name);
      if (mark === undefined) unmarked.push(`${qualified}.${column.name}`);
      else if (readable(relation, mark)) columns.push(column);
    }
    if (columns.length > 0)
      targets.push({ ...relation, columns, masking: relation.schema === MASKED_SCHEMA });
  }
  return { targets, unmarked };
}

/** The marks that apply to a relation, if it is marked. */
function marksOf(relation: CatalogRelation, marks: ReaderMarks): ReadonlyMap<string, Mark> | undefined {
  if (relation.schema === MASKED_SCHEMA || isFulfillmentTable(relation)) {
    return marks.masked.get(`${READER_SCHEMA}.${relation.name}`);
  }
  return marks.direct.get(`${relation.schema}.${relation.name}`);
}

/**
 * Through a masking view every mark but closed is readable (masked as marked); a table of
 * fulfillment never (its masking view instead: its marks only name what that view may show);
 * elsewhere only safe.
 */
function readable(relation: CatalogRelation, mark: Mark): boolean {
  if (relation.schema === MASKED_SCHEMA) return mark !== 'closed';
  return !isFulfillmentTable(relation) && mark === 'safe';
}

function isFulfillmentTable(relation: CatalogRelation): boolean {
  return relation.schema === READER_SCHEMA && ['r', 'p', 'f'].includes(relation.kind);
}

/** The relation's name for SQL. */
export function qualifiedName(target: { schema: string; name: string }): string {
  return `${quoteIdent(target.schema)}.${quoteIdent(target.name)}`;
}
