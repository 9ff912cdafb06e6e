import type pg from 'pg';
import type { SimTruth } from '../../../src/simulator/truth.ts';
import { compareWarehouse, type WarehouseTruthOptions } from '../../helpers/warehouseTruth.ts';

/**
 * The warehouse-vs-truth comparison as counts per table, for a scorecard: the same comparison as
 * `warehouseMismatches` (test/helpers/warehouseTruth.ts, from the checks of warehouseTruthChecks.ts),
 * counted from its structured result rather than parsed from its lines.
 */

/** One table's differences from the truth. */
export interface TableFigures {
  /** Truth records with no stored row. */
  missing: number;
  /** Stored rows the truth does not have. */
  extra: number;
  /** Fields that differ between a stored row and its truth record (a row can count several). */
  fieldMismatches: number;
  /** Truth records compared (so an empty truth is visible, not a silent pass). */
  records: number;
  /** Keys the truth holds twice: a broken check rather than a warehouse fault, but never silent. */
  twiceInTruth: number;
}

/** Per fulfillment table (by name), how the warehouse behind `pool` differs from `truth`. */
export async function truthFigures(
  pool: pg.Pool,
  truth: SimTruth,
  options: Omit<WarehouseTruthOptions, 'limit'> = {},
): Promise<Record<string, TableFigures>> {
  const figures: Record<string, TableFigures> = {};
  for (const t of await compareWarehouse(pool, truth, options)) {
    const previous = figures[t.name] ?? empty();
    figures[t.name] = {
      missing: previous.missing + t.missing.length,
      extra: previous.extra + t.extra.length,
      fieldMismatches: previous.fieldMismatches + t.mismatched.reduce((n, m) => n + m.fields.length, 0),
      records: previous.records + t.records,
      twiceInTruth: previous.twiceInTruth + t.twiceInTruth.length,
    };
  }
  return figures;
}

/** The sum over tables: zero everywhere is "the warehouse equals the truth". */
export function totalOf(figures: Record<string, TableFigures>): TableFigures {
  const total = empty();
  for (const f of Object.values(figures))
    for (const k of Object.keys(total) as (keyof TableFigures)[]) total[k] += f[k];
  return total;
}

function empty(): TableFigures {
  return { missing: 0, extra: 0, fieldMismatches: 0, records: 0, twiceInTruth: 0 };
}
