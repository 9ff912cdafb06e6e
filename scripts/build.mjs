// `npm run build`: compiles src/ and jobs/ to dist/ (tsc -p tsconfig.build.json) from a clean dist/,
// then stamps dist/ with a hash of everything the build reads. `--if-stale` (what `prepare` runs)
// builds only when that hash differs from the stamp: `npx fulfillment-sync` in a checkout installs
// the checkout into npm's npx cache and runs `prepare` there on its first call, which was a full
// compile (20 s on a busy machine) although `npm ci` had just built the same sources.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { inputsHash, REPO_ROOT as root, BUILD_STAMP as STAMP } from './buildInputs.mjs';

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
