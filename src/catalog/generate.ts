/**
 * Regenerates the published catalogue from the code: docs/data-dictionary.md (from src/db/schema
 * and src/db/comments), schemas/events/<type>.json (from the record schemas of src/api/records) and
 * schemas/types/ (the TypeScript types of those schemas, `fulfillment-sync/events`).
 *   npm run docs:generate            writes them (and removes event schemas of types that are gone)
 *   npm run docs:generate -- --check exits 1 naming every stale file, writing nothing
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GENERATED_FOLDERS, generatedFiles } from './files.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const check = process.argv.includes('--check');
const wanted = await generatedFiles();

const stale: string[] = [];
for (const [file, content] of wanted) {
  const target = path.join(root, file);
  if (readOrUndefined(target) === content) continue;
  stale.push(file);
  if (!check) {
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}
for (const folder of GENERATED_FOLDERS) {
  for (const name of listOrEmpty(path.join(root, folder))) {
    const file = `${folder}/${name}`;
    if (wanted.has(file)) continue;
    stale.push(file);
    if (!check) rmSync(path.join(root, file));
  }
}

if (check && stale.length > 0) {
  console.error(`Stale generated files (run npm run docs:generate):\n  ${stale.join('\n  ')}`);
  process.exit(1);
}
console.log(
  stale.length === 0
    ? `${wanted.size} generated files up to date.`
    : `Updated ${stale.length}: ${stale.join(', ')}.`,
);

function readOrUndefined(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function listOrEmpty(folder: string): string[] {
  try {
    return readdirSync(folder).sort();
  } catch {
    return [];
  }
}
