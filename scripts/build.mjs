// `npm run build`: compiles src/ and jobs/ to dist/ (tsc -p tsconfig.build.json) from a clean dist/,
// then stamps dist/ with a hash of everything the build reads. `--if-stale` (what `prepare` runs)
// builds only when that hash differs from the stamp: `npx fulfillment-sync` in a checkout installs
// the checkout into npm's npx cache and runs `prepare` there on its first call, which was a full
// compile (20 s on a busy machine) although `npm ci` had just built the same sources.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const STAMP = path.join(root, 'dist', '.build-inputs');

/** Every file under a folder, relative to the repository, sorted. */
function filesUnder(dir) {
  return readdirSync(path.join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * A hash of what the output depends on: the sources (tests included: a superset is safe), the
 * compiler settings, package.json (its "type" decides the module format) and the compiler itself.
 */
function inputsHash() {
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
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const inputs = inputsHash();
if (
  process.argv.includes('--if-stale') &&
  existsSync(STAMP) &&
  readFileSync(STAMP, 'utf8').trim() === inputs
) {
  console.log('fulfillment-sync: dist/ is already built from these sources; nothing to compile.');
} else {
  rmSync(path.join(root, 'dist'), { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  writeFileSync(STAMP, `${inputs}\n`);
}
