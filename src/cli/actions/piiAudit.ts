import pg from 'pg';
import { auditRelation, personalCount, type RelationAudit } from '../../db/pii/audit.ts';
import { PERSONAL_SHAPES, type PersonalShape } from '../../db/pii/patterns.ts';
import { reachedRelations } from '../../db/pii/reach.ts';
import { describeCounts } from '../../db/reader/screen.ts';
import { effectiveUrl } from '../../db/urls.ts';
import type { CliContext } from '../context.ts';
import { EXIT_FAILURE, EXIT_OK } from '../exitCodes.ts';
import { UsageError } from '../usageError.ts';

/** Options of `pii-audit`. */
export interface PiiAuditOptions {
  role?: string;
  /** Parsed by the command (a whole number >= 1); --full and --rows exclude each other there. */
  rows?: number;
  full?: boolean;
  json?: boolean;
}

/** Rows read per relation unless told otherwise: bounded cost on any warehouse. */
export const DEFAULT_AUDIT_ROWS = 1000;

/** What `pii-audit` found (its --json). */
export interface PiiAuditReport {
  role: string;
  /** Rows read per relation at most (newest first where it has synced_at); null: every row. */
  rowsPerRelation: number | null;
  relations: Array<RelationAudit & { readableColumns: number }>;
  /** Values that look personal, in clear, over everything read, per shape. */
  total: Record<PersonalShape, number>;
  /** Relations that could not be read (their values are unknown). */
  unreadable: number;
}

/**
 * `pii-audit [--role R] [--rows N | --full] [--json]`: reads what `role` can read (every relation and
 * column it can select, by any path) and counts the values that look like an e-mail, phone or street
 * line, per relation and column. Exit 0 when none is found, 1 when some is (or a relation could not
 * be read), 2 on bad usage (an unknown role included).
 */
export async function piiAuditAction(context: CliContext, options: PiiAuditOptions): Promise<number> {
  const rows = rowsOption(options);
  const config = context.config();
  const client = new pg.Client({
    connectionString: effectiveUrl(config.databaseUrl),
    application_name: 'fulfillment-sync pii-audit',
  });
  await client.connect();
  try {
    const role = await roleToAudit(client, options.role ?? config.readerRole);
    const reached = await reachedRelations(client, role);
    const relations: PiiAuditReport['relations'] = [];
    for (const relation of reached) {
      const audit = await auditRelation(client, relation, { rows });
      relations.push({ ...audit, readableColumns: relation.readable });
    }
    const report = summarise(role, rows ?? null, relations);
    if (options.json) context.print(JSON.stringify(report));
    else for (const line of formatPiiAudit(report)) context.print(line);
    return personalCount(report.total) > 0 || report.unreadable > 0 ? EXIT_FAILURE : EXIT_OK;
  } finally {
    await client.end().catch(() => {});
  }
}

function rowsOption(options: PiiAuditOptions): number | undefined {
  if (options.full) return undefined;
  return options.rows ?? DEFAULT_AUDIT_ROWS;
}

/** The role named (it must exist: a typo would audit nothing and pass), or the connecting user. */
async function roleToAudit(client: pg.Client, named: string | undefined): Promise<string> {
  if (named === undefined) {
    const { rows } = await client.query<{ role: string }>('SELECT current_user AS role');
    return rows[0]!.role;
  }
  if (named.length === 0 || named.length > 63)
    throw new UsageError('--role must name a role (1 to 63 characters).');
  const { rows } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [named]);
  if (rows.length === 0)
    throw new UsageError(`--role: role "${named}" does not exist in this database's cluster.`);
  return named;
}

function summarise(
  role: string,
  rowsPerRelation: number | null,
  relations: PiiAuditReport['relations'],
): PiiAuditReport {
  const total = sumOf(relations.flatMap((r) => r.columns));
  const unreadable = relations.filter((r) => r.error !== undefined).length;
  return { role, rowsPerRelation, relations, total, unreadable };
}

/** The text report: one line per relation, one more per column where something was found, a verdict. */
export function formatPiiAudit(report: PiiAuditReport): string[] {
  const scope =
    report.rowsPerRelation === null
      ? 'every row'
      : `up to ${report.rowsPerRelation} rows each, newest first where it has synced_at (--full reads every row)`;
  const columns = report.relations.reduce((sum, r) => sum + r.readableColumns, 0);
  const lines = [
    `pii-audit of role "${report.role}": ${report.relations.length} relations, ${columns} columns it can read; ${scope}`,
  ];
  const width = Math.max(0, ...report.relations.map((r) => r.relation.length));
  for (const relation of report.relations) {
    const name = relation.relation.padEnd(width);
    if (relation.error !== undefined) {
      lines.push(`  ${name}  could not be read: ${relation.error}`);
      continue;
    }
    const found = relation.columns.filter((c) => personalCount(c) > 0);
    const counts = found.length === 0 ? 'none in clear' : describeCounts(sumOf(found));
    lines.push(
      `  ${name}  ${String(relation.rows).padStart(7)} rows, ${relation.columns.length} scanned ${relation.columns.length === 1 ? 'column' : 'columns'}: ${counts}`,
    );
    for (const column of found) lines.push(`    ${column.column}: ${describeCounts(column)}`);
  }
  const total = personalCount(report.total);
  const unreadable = report.unreadable > 0 ? `; ${report.unreadable} relations could not be read` : '';
  lines.push(
    total === 0
      ? `no value that looks personal is in clear${unreadable}`
      : `${total} values that look personal are in clear (${describeCounts(report.total)})${unreadable}`,
  );
  return lines;
}

function sumOf(columns: readonly Record<PersonalShape, number>[]): Record<PersonalShape, number> {
  const sum = { email: 0, phone: 0, street: 0 };
  for (const column of columns) for (const shape of PERSONAL_SHAPES) sum[shape] += column[shape];
  return sum;
}
