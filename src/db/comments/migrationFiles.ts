import { readFileSync } from 'node:fs';
import path from 'node:path';
import { MIGRATIONS_FOLDER } from '../migrate.ts';

interface Journal {
  entries: Array<{ idx: number; tag: string }>;
}

/** The migration SQL files in the order drizzle applies them (from meta/_journal.json). */
export function migrationFiles(folder = MIGRATIONS_FOLDER): string[] {
  const journal = JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;
  return [...journal.entries].sort((a, b) => a.idx - b.idx).map((e) => path.join(folder, `${e.tag}.sql`));
}
