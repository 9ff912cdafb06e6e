// `prepare`, run by `npm ci`, `npm install` and a first `npx fulfillment-sync` in a checkout: builds
// dist/ unless it is already built from the same sources (scripts/build.mjs --if-stale). Skipped, with a note,
// when dev dependencies are left out (`npm ci --omit=dev`, or NODE_ENV=production): the compiler and
// the type packages are dev dependencies. Build with a full `npm ci`, then `npm prune --omit=dev`.
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const words = (value) => (value ?? '').split(/[\s,]+/);
const omitDev =
  words(process.env.npm_config_omit).includes('dev') ||
  (process.env.NODE_ENV === 'production' && !words(process.env.npm_config_include).includes('dev'));

if (omitDev) {
  console.warn(
    'fulfillment-sync: dev dependencies omitted, so dist/ is not built here; build with `npm ci`, then `npm prune --omit=dev`.',
  );
} else {
  execFileSync(process.execPath, [path.join(import.meta.dirname, 'build.mjs'), '--if-stale'], {
    stdio: 'inherit',
  });
}
