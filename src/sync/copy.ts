import type { PgTable } from 'drizzle-orm/pg-core';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { useLimits } from '../db/guardedClient.ts';
import { quoteIdent, tableInfo } from './columns.ts';
import { rawJsonOf } from './incoming.ts';
import { wireValue } from './normalize.ts';
import type { Row } from './types.ts';
import { valueKind } from './valueKind.ts';

const SPECIAL = /[\\\n\r\t]/g;
const HAS_SPECIAL = /[\\\n\r\t]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One value in COPY text format: `\N` for null, backslash escapes for the four special characters. */
function copyText(value: string | number | boolean | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  const text = String(value);
  // Most values need no escaping; testing first avoids building a copy of each.
  return HAS_SPECIAL.test(text) ? text.replace(SPECIAL, (c) => ESCAPES[c] ?? c) : text;
}

/**
 * Streams rows into a table with `COPY ... FROM STDIN` inside the caller's transaction: the fastest
 * way Postgres takes new rows. For rows known to be new only (the caller holds the stream lease and
 * has read the stored keys). `syncedAt` stamps `synced_at` on rows that do not carry it; other
 * omitted columns take their defaults.
 */
export async function copyRows(
  tx: PoolClient,
  table: PgTable,
  rows: readonly Row[],
  options: { syncedAt?: Date } = {},
): Promise<void> {
  if (rows.length === 0) return;
  const info = tableInfo(table);
  const set = new Set<string>();
  for (const row of rows) for (const k of Object.keys(row)) set.add(k);
  const stamp = options.syncedAt !== undefined && info.types.has('synced_at');
  if (stamp) set.add('synced_at');
  const columns = [...set];
  const syncedAt = options.syncedAt?.toISOString() ?? null;
  const kinds = columns.map((c) => {
    const sqlType = info.types.get(c);
    if (!sqlType) throw new Error(`Column ${c} is not in ${info.qualified}: fix the stream's row builder.`);
    return valueKind(sqlType);
  });
  // A COPY's length grows with the window's rows: it runs under the long statement timeout.
  await useLimits(tx, 'long');
  const stream = tx.query(
    copyFrom(`COPY ${info.qualified} (${columns.map(quoteIdent).join(', ')}) FROM STDIN`),
  );
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  try {
    let buffer = '';
    for (const row of rows) {
      let line = '';
      for (let i = 0; i < columns.length; i++) {
        const column = columns[i] as string;
        const value =
          column === 'raw'
            ? (rawJsonOf(row) ?? wireValue(row.raw, 'json'))
            : stamp && column === 'synced_at' && row.synced_at === undefined
              ? syncedAt
              : wireValue(row[column], kinds[i] ?? 'text');
        line += `${i ? '\t' : ''}${copyText(value)}`;
      }
      buffer += `${line}\n`;
      if (buffer.length > 1 << 20) {
        if (!stream.write(buffer)) await new Promise((r) => stream.once('drain', r));
        buffer = '';
      }
    }
    stream.end(buffer);
  } catch (error) {
    // A row that cannot be serialised must end the COPY with CopyFail: left open, the connection
    // would wait forever and so would the ROLLBACK queued behind it.
    stream.destroy(error as Error);
    await done.catch(() => undefined);
    throw error;
  }
  await done;
  await useLimits(tx, 'standard');
}
