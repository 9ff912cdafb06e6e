#!/usr/bin/env node
// The `fulfillment-sync` executable: runs the TypeScript sources through tsx, so `npx fulfillment-sync`
// works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
