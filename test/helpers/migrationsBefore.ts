import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MIGRATIONS_FOLDER } from '../../src/db/migrate.ts';

/**
 * A copy of the migrations that stops before the first one whose tag contains `tagPart`, for tests
 * of an upgrade from that point (migrate with it, write what the old schema held, migrate the rest).
 * `remove()` deletes the copy.
 */
export function migrationsBefore(tagPart: string): { folder: string; remove: () => void } {
  const folder = mkdtempSync(path.join(tmpdir(), 'fs-migrations-'));
  cpSync(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
    entries: Array<{ idx: number; tag: string }>;
  };
  const cut = journal.entries.findIndex((e) => e.tag.includes(tagPart));
  if (cut <= 0) throw new Error(`no migration named *${tagPart}* after the first`);
  journal.entries = journal.entries.slice(0, cut);
  writeFileSync(journalFile, JSON.stringify(journal));
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
