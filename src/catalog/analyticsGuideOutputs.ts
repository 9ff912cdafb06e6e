/**
 * Writes into docs/analytics.md what each of its queries returns on a database (by default the one
 * `npm run demo` filled): `DATABASE_URL=postgres://.../demo npm run docs:analytics`.
 * Each output goes between `<!-- output: id -->` and `<!-- /output -->` (or replaces an
 * `OUTPUT:id` placeholder), as psql would print it, cut after 12 rows.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { GUIDE_FILE, guideQueries } from '../analytics/guideQueries.ts';

const MAX_ROWS = 12;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return String(value);
}

/** A result as psql's aligned format prints it. */
function table(fields: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): string {
  const shown = rows.slice(0, MAX_ROWS).map((r) => fields.map((f) => cell(r[f])));
  const widths = fields.map((f, i) => Math.max(f.length, ...shown.map((r) => r[i]!.length)));
  const line = (cells: readonly string[]) =>
    ` ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')}`.trimEnd();
  const more = rows.length > MAX_ROWS ? [`...`] : [];
  const count = `(${rows.length} ${rows.length === 1 ? 'row' : 'rows'})`;
  return [
    line(fields),
    widths.map((w) => '-'.repeat(w + 2)).join('+'),
    ...shown.map(line),
    ...more,
    count,
  ].join('\n');
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgres://127.0.0.1:5432/fulfillment';
  // Calendar days as written, not as local midnights.
  pg.types.setTypeParser(1082, (v: string) => v);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  let doc = readFileSync(GUIDE_FILE, 'utf8');
  try {
    for (const { id, sql } of guideQueries()) {
      const result = await client.query(sql);
      const block = `<!-- output: ${id} -->\n\`\`\`text\n${table(
        result.fields.map((f) => f.name),
        result.rows,
      )}\n\`\`\`\n<!-- /output -->`;
      const marked = new RegExp(`<!-- output: ${id} -->[\\s\\S]*?<!-- /output -->`);
      doc = marked.test(doc) ? doc.replace(marked, block) : doc.replace(`OUTPUT:${id}`, block);
    }
  } finally {
    await client.end();
  }
  writeFileSync(GUIDE_FILE, doc);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
