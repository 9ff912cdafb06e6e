import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dictionaryModel } from '../../src/catalog/dataDictionary.ts';
import { EVENT_SCHEMA_DIR } from '../../src/catalog/eventSchemas.ts';
import { GENERATED_FOLDERS, generatedFiles } from '../../src/catalog/files.ts';
import { EVENT_TYPES } from '../../src/events/types.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * The published catalogue (docs/data-dictionary.md, schemas/events/) is what the code generates,
 * and the dictionary describes the real migrated database: CI runs this through `npm test`.
 */

function readOrMissing(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '(missing)';
}

describe('the generated catalogue files', () => {
  it('are what `npm run docs:generate` writes (run it and commit when this fails)', async () => {
    const wanted = await generatedFiles();
    const stale = [...wanted]
      .filter(([file, content]) => readOrMissing(file) !== content)
      .map(([file]) => file);
    const extra = GENERATED_FOLDERS.flatMap((folder) =>
      readdirSync(folder)
        .map((name) => `${folder}/${name}`)
        .filter((file) => !wanted.has(file)),
    );
    expect({ stale, extra }).toEqual({ stale: [], extra: [] });
  });

  it('include one schema per event type, each linked from docs/events.md', () => {
    const catalogue = readFileSync('docs/events.md', 'utf8');
    for (const type of EVENT_TYPES) {
      const file = `${EVENT_SCHEMA_DIR}/${type}.json`;
      expect(existsSync(file), file).toBe(true);
      expect(catalogue, type).toContain(`(${path.posix.join('..', file)})`);
    }
  });
});

describe('the data dictionary', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t?.close());

  it('names every table and view of the migrated database with its columns, types, nullability and comments', async () => {
    const { rows } = await t.pool.query<{
      relation: string;
      kind: string;
      comment: string | null;
      columns: Array<{ name: string; type: string; not_null: boolean; comment: string | null }>;
    }>(
      `SELECT n.nspname || '.' || c.relname AS relation,
              CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view' ELSE 'table' END AS kind,
              obj_description(c.oid, 'pg_class') AS comment,
              (SELECT json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod),
                                                 'not_null', a.attnotnull, 'comment', col_description(c.oid, a.attnum))
                               ORDER BY a.attname)
                 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped) AS columns
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname IN ('fulfillment', 'fulfillment_masked', 'analytics', 'sync') AND c.relkind IN ('r', 'v', 'm')
        ORDER BY 1`,
    );
    const byRelation = (a: { relation: string }, b: { relation: string }) =>
      a.relation < b.relation ? -1 : 1;
    const inDatabase = rows
      .map((r) => ({
        relation: r.relation,
        kind: r.kind,
        description: r.comment,
        columns: r.columns.map((c) => ({
          name: c.name,
          type: c.type,
          // A view's columns carry no NOT NULL: the dictionary leaves it blank.
          notNull: r.kind === 'table' ? c.not_null : undefined,
          description: c.comment,
        })),
      }))
      .sort(byRelation);
    const documented = dictionaryModel()
      .map((r) => ({
        relation: `${r.schema}.${r.name}`,
        kind: r.kind,
        description: r.description,
        // Columns by name: ALTER TABLE ADD COLUMN appends, so the catalog's order can differ from the schema's.
        columns: [...r.columns].sort((a, b) => (a.name < b.name ? -1 : 1)),
      }))
      .sort(byRelation);
    expect(documented).toEqual(inDatabase);
  });
});
