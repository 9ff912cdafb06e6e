// `prepare`, run by `npm ci` and `npm install`: builds dist/ (`npm run build`). Skipped, with a note,
// when dev dependencies are left out (`npm ci --omit=dev`, or NODE_ENV=production): the compiler and
// the type packages are dev dependencies. Build with a full `npm ci`, then `npm prune --omit=dev`.
import { execSync } from 'node:child_process';

const words = (value) => (value ?? '').split(/[\s,]+/);
const omitDev =
  words(process.env.npm_config_omit).includes('dev') ||
  (process.env.NODE_ENV === 'production' && !words(process.env.npm_config_include).includes('dev'));

if (omitDev) {
  console.warn(
    'fulfillment-sync: dev dependencies omitted, so dist/ is not built here; build with `npm ci`, then `npm prune --omit=dev`.',
  );
} else {
  execSync('npm run build', { stdio: 'inherit' });
}
