// What a build of dist/ is made from, and where dist/ records it: shared by scripts/build.mjs
// (`--if-stale` skips a build whose inputs have not changed) and test/helpers/cli.ts (tests run the
// build when it is current, and the sources through tsx otherwise).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '..');

/** dist/'s stamp: the inputs hash of the sources it was built from. */
export const BUILD_STAMP = path.join(REPO_ROOT, 'dist', '.build-inputs');

/** Every file under a folder, relative to the repository, sorted. */
function filesUnder(dir) {
  return readdirSync(path.join(REPO_ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(REPO_ROOT, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * A hash of what the output depends on: the sources (tests included: a superset is safe), the
 * compiler settings, package.json (its "type" decides the module format) and the compiler itself.
 */
export function inputsHash() {
  const hash = createHash('sha256');
  const files = [
    ...filesUnder('src'),
    ...filesUnder('jobs'),
    'tsconfig.json',
    'tsconfig.build.json',
    'package.json',
    'node_modules/typescript/package.json',
  ];
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(REPO_ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether dist/ was built from the sources as they are now. */
export function buildIsCurrent() {
  try {
    return readFileSync(BUILD_STAMP, 'utf8').trim() === inputsHash();
  } catch {
    return false;
  }
}
