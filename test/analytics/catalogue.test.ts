import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelOf } from '../../src/analytics/models/index.ts';
import { ANALYTICS_RELATIONS, MAINTAINED } from '../../src/analytics/views.ts';
import { PII_MARKER } from '../../src/db/pii/marking.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * src/analytics/views.ts is the one list of schema analytics that the refresher, the freshness view
 * and the reader's grants build on: it names every relation of the migrated schema, every kept one
 * has a model and is a table, and none holds a column marked as personal data.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

describe('the analytics catalogue', () => {
  it('names every relation of schema analytics (but freshness, which reports on the others)', async () => {
    const { rows } = await t.pool.query<{ name: string; kind: string }>(
      `SELECT 'analytics.' || relname AS name, relkind::text AS kind FROM pg_class
        WHERE relnamespace = 'analytics'::regnamespace AND relkind IN ('r', 'v', 'm') ORDER BY 1`,
    );
    const catalogued = ANALYTICS_RELATIONS.map((r) => r.relation);
    expect(rows.map((r) => r.name).filter((n) => n !== 'analytics.freshness')).toEqual(
      [...catalogued].sort(),
    );
    for (const relation of MAINTAINED) {
      expect(rows.find((r) => r.name === relation)?.kind, relation).toBe('r');
      expect(modelOf(relation).relation).toBe(relation);
    }
  });

  it('marks no column of schema analytics as personal data', async () => {
    const { rows } = await t.pool.query<{ column: string }>(
      `SELECT c.relname || '.' || a.attname AS column
         FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
        WHERE c.relnamespace = 'analytics'::regnamespace AND col_description(c.oid, a.attnum) ~ $1`,
      [`\\m${PII_MARKER}\\M`],
    );
    expect(rows).toEqual([]);
  });
});
