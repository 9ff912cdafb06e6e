import { getTableConfig } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { SimTruth } from '../../../src/simulator/truth.ts';
import type { Row } from '../../../src/sync/types.ts';
import { tableMismatches } from '../../helpers/warehouseTruth.ts';
import { truthChecks } from '../../helpers/warehouseTruthChecks.ts';

/** One fulfillment table against the truth: how many rows each side has and how many problems. */
export interface TableTruthCount {
  table: string;
  truthRows: number;
  storedRows: number;
  mismatches: number;
  /** The first problem line, for the failure message. */
  example?: string;
}

/**
 * Per-table truth figures (the same comparison as `warehouseMismatches`, not capped at 20 lines):
 * every table the streams fill, with its row counts on both sides and its mismatch count.
 */
export async function truthCountsByTable(
  pool: pg.Pool,
  truth: SimTruth,
  options: { namedOrdersOnly?: boolean } = {},
): Promise<TableTruthCount[]> {
  const counts: TableTruthCount[] = [];
  for (const check of truthChecks(truth, options)) {
    const table = getTableConfig(check.table).name;
    const rows = (await pool.query(`SELECT * FROM fulfillment.${table}`)).rows as Row[];
    const problems = tableMismatches(check, rows, truth.timezone);
    counts.push({
      table,
      truthRows: check.records.length,
      storedRows: rows.length,
      mismatches: problems.length,
      example: problems[0],
    });
  }
  return counts;
}

/** `shipments 12/12, orders 3/3 ...` (stored/truth per table), mismatching tables marked with their count. */
export function formatTruthCounts(counts: readonly TableTruthCount[]): string {
  return counts
    .map(
      (c) =>
        `${c.table} ${c.storedRows}/${c.truthRows}${c.mismatches ? ` (${c.mismatches} mismatches)` : ''}`,
    )
    .join(', ');
}
