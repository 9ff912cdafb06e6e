#!/usr/bin/env node
// Development entry: runs the TypeScript sources through tsx, so `npm run cli`, `npm run demo` and the
// tests exercise what is in src/ without a build. The package's bin is the built dist/src/cli/main.js.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
