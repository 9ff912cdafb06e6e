/**
 * Writes the COMMENT ON statements that the committed migrations do not set yet into a new custom
 * drizzle migration. Run after changing the schema or the descriptions:
 *   npx drizzle-kit generate && npx tsx src/db/comments/write.ts
 * Exits 1 naming every table or column that has no description yet.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { ALL_RELATIONS } from '../allTables.ts';
import { MIGRATIONS_FOLDER } from '../migrate.ts';
import { migrationFiles } from './migrationFiles.ts';
import { appliedComments, collectComments, pendingComments, renderCommentsSql } from './render.ts';

const { comments, missing } = collectComments(ALL_RELATIONS);
if (missing.length > 0) {
  console.error(
    `No description for:\n  ${missing.join('\n  ')}\nAdd them in src/db/comments/, then run again.`,
  );
  process.exit(1);
}

const applied = appliedComments(migrationFiles().map((file) => readFileSync(file, 'utf8')));
const pending = pendingComments(comments, applied);
if (pending.length === 0) {
  console.log('Comments are up to date: no migration written.');
  process.exit(0);
}

execFileSync('npx', ['drizzle-kit', 'generate', '--custom', '--name', 'comments'], { stdio: 'inherit' });
const newest = migrationFiles(MIGRATIONS_FOLDER).at(-1)!;
writeFileSync(newest, renderCommentsSql(pending));
console.log(`Wrote ${pending.length} comments to ${newest}.`);
