import type { PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { quoteIdent, tableInfo, valueKind } from '../src/sync/columns.ts';
import { wireValue } from '../src/sync/normalize.ts';
import type { Row } from '../src/sync/types.ts';

function copyText(value: string | number | boolean | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  return String(value).replace(
    /[\\\n\r\t]/g,
    (c) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c] ?? c,
  );
}

/** COPY rows into a table in text format: the floor the engine's writes are measured against. */
export async function copyRows(client: pg.PoolClient, table: PgTable, rows: readonly Row[]): Promise<void> {
  if (rows.length === 0) return;
  const info = tableInfo(table);
  const columns = Object.keys(rows[0] ?? {});
  const kinds = columns.map((c) => valueKind(info.types.get(c) ?? 'text'));
  const stream = client.query(
    copyFrom(`COPY ${info.qualified} (${columns.map(quoteIdent).join(', ')}) FROM STDIN`),
  );
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  let buffer = '';
  for (const row of rows) {
    buffer += `${columns.map((c, i) => copyText(wireValue(row[c], kinds[i] ?? 'text'))).join('\t')}\n`;
    if (buffer.length > 1 << 20) {
      if (!stream.write(buffer)) await new Promise((r) => stream.once('drain', r));
      buffer = '';
    }
  }
  stream.end(buffer);
  await done;
}
