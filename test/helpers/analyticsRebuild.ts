import type { Pool } from 'pg';
import { modelOf } from '../../src/analytics/models/index.ts';
import { MAINTAINED } from '../../src/analytics/views.ts';

/** The tables one model keeps (shipped_units_daily keeps the monthly table too). */
const tablesOf = (relation: string) =>
  relation === 'analytics.shipped_units_daily' ? [relation, 'analytics.shipped_units_monthly'] : [relation];

/** How one kept table differs from what a rebuild makes of the same sources. */
export interface RebuildDifference {
  table: string;
  rows: number;
  onlyKept: string[];
  onlyRebuilt: string[];
}

/**
 * Rebuilds every kept table in a transaction it rolls back, and answers where the tables as the
 * refreshes kept them differ from the rebuild (rows as text; empty lists: identical). The rebuild
 * is the same query over every key, so this checks that taking in only the changes loses nothing.
 */
export async function differencesFromRebuild(pool: Pool): Promise<RebuildDifference[]> {
  const client = await pool.connect();
  const dump = async (table: string) =>
    (await client.query<{ r: string }>(`SELECT x::text AS r FROM ${table} x ORDER BY 1`)).rows.map(
      (r) => r.r,
    );
  const differences: RebuildDifference[] = [];
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    for (const relation of MAINTAINED) {
      const kept = new Map<string, string[]>();
      for (const table of tablesOf(relation)) kept.set(table, await dump(table));
      await modelOf(relation).rebuild(client);
      for (const table of tablesOf(relation)) {
        const before = kept.get(table)!;
        const after = await dump(table);
        const inAfter = new Set(after);
        const inBefore = new Set(before);
        differences.push({
          table,
          rows: before.length,
          onlyKept: before.filter((r) => !inAfter.has(r)),
          onlyRebuilt: after.filter((r) => !inBefore.has(r)),
        });
      }
    }
  } finally {
    await client.query('ROLLBACK');
    client.release();
  }
  return differences;
}

/** The tables whose kept rows differ from a rebuild, with a few rows of each side. */
export function mismatches(differences: readonly RebuildDifference[]) {
  return differences
    .filter((d) => d.onlyKept.length + d.onlyRebuilt.length > 0)
    .map((d) => ({
      table: d.table,
      onlyKept: d.onlyKept.slice(0, 3),
      onlyRebuilt: d.onlyRebuilt.slice(0, 3),
    }));
}
