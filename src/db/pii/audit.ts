import type { Queryable } from '../queryable.ts';
import { quoteIdent } from '../urls.ts';
import { PATTERN_ARRAY, PERSONAL_SHAPES, type PersonalShape } from './patterns.ts';

/**
 * Counts the values that look personal (an e-mail, a phone, a street line: src/db/pii/patterns.ts)
 * in columns of a relation, JSON walked to every string and member name at any depth: what
 * `pii-audit` reports and what `grant-reader` checks before granting a column. Reads as the
 * connection it is given, the columns it is told.
 */

/** A column to scan: text of any kind, or JSON. */
export interface AuditColumn {
  name: string;
  json: boolean;
}

/** A relation and the columns of it to scan. */
export interface AuditTarget {
  schema: string;
  name: string;
  columns: readonly AuditColumn[];
  /** A column to read the newest rows first by (`synced_at`), when sampling. */
  newestFirst?: string | undefined;
}

/** How many scanned values of a column look like each shape. */
export type ColumnCounts = { column: string } & Record<PersonalShape, number>;

/** What a scan of one relation found. */
export interface RelationAudit {
  relation: string;
  /** Rows read. */
  rows: number;
  columns: ColumnCounts[];
  /** Why the relation could not be read (then nothing of it is known to be safe). */
  error?: string;
}

/** How much to read: `rows` per relation (newest first where it can), or all of it (`undefined`). */
export interface AuditOptions {
  rows?: number | undefined;
}

/** The values of a column that look personal, of every shape. */
export function personalCount(counts: Omit<ColumnCounts, 'column'>): number {
  return PERSONAL_SHAPES.reduce((sum, shape) => sum + counts[shape], 0);
}

/** Scans `target`'s columns; a relation it cannot read is reported with the error, not thrown. */
export async function auditRelation(
  db: Queryable,
  target: AuditTarget,
  options: AuditOptions = {},
): Promise<RelationAudit> {
  const relation = `${target.schema}.${target.name}`;
  if (target.columns.length === 0) return { relation, rows: 0, columns: [] };
  try {
    const { rows } = await db.query<Record<string, number>>(auditSql(target, options), [...PATTERN_ARRAY]);
    const row = rows[0] ?? {};
    return {
      relation,
      rows: row.rows ?? 0,
      columns: target.columns.map((column, i) => ({
        column: column.name,
        email: row[`c${i}_email`] ?? 0,
        phone: row[`c${i}_phone`] ?? 0,
        street: row[`c${i}_street`] ?? 0,
      })),
    };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    return { relation, rows: 0, columns: [], error: message };
  }
}

// $1, $2 and $3 are the patterns in PATTERN_ARRAY's order; the cheap tests spare most values the
// expressions (an e-mail needs an @, a phone or a street line a digit), as sync.pii_looks_personal does.
const MATCHES: Readonly<Record<PersonalShape, (value: string) => string>> = {
  email: (v) => `strpos(${v}, '@') > 0 AND ${v} ~* $1`,
  phone: (v) => `${v} ~ '[0-9]' AND ${v} ~* $2`,
  street: (v) => `${v} ~ '[0-9]' AND ${v} ~* $3`,
};

/** One query: the sampled rows, a count per column and shape (JSON through a lateral walk of its texts). */
function auditSql(target: AuditTarget, options: AuditOptions): string {
  const names = target.columns.map((c) => quoteIdent(c.name));
  const order =
    options.rows !== undefined && target.newestFirst
      ? ` ORDER BY ${quoteIdent(target.newestFirst)} DESC NULLS LAST`
      : '';
  const limit = options.rows !== undefined ? ` LIMIT ${Math.max(0, Math.floor(options.rows))}` : '';
  const sample = `SELECT ${names.join(', ')} FROM ${quoteIdent(target.schema)}.${quoteIdent(target.name)}${order}${limit}`;
  const counts: string[] = ['count(*)::int AS rows'];
  const laterals: string[] = [];
  target.columns.forEach((column, i) => {
    for (const shape of PERSONAL_SHAPES) {
      counts.push(
        column.json
          ? `coalesce(sum(j${i}.${shape}), 0)::int AS c${i}_${shape}`
          : `count(*) FILTER (WHERE ${MATCHES[shape](`s.${names[i]}::text`)})::int AS c${i}_${shape}`,
      );
    }
    if (column.json) laterals.push(jsonLateral(`s.${names[i]}::jsonb`, `j${i}`));
  });
  return `SELECT ${counts.join(', ')} FROM (${sample}) s${laterals.join('')}`;
}

/** Counts per shape over every string and member name of a JSON value, at any depth. */
function jsonLateral(value: string, alias: string): string {
  const texts = `SELECT x #>> '{}' AS v FROM jsonb_path_query(${value}, 'strict $.** ? (@.type() == "string")') x
                 UNION ALL
                 SELECT x #>> '{}' FROM jsonb_path_query(${value}, 'strict $.** ? (@.type() == "object").keyvalue().key') x`;
  const counts = PERSONAL_SHAPES.map(
    (shape) => `count(*) FILTER (WHERE ${MATCHES[shape]('l.v')}) AS ${shape}`,
  );
  return ` LEFT JOIN LATERAL (SELECT ${counts.join(', ')} FROM (${texts}) l) ${alias} ON true`;
}
