#!/usr/bin/env node
import { loadDotEnv } from '../config/envFile.ts';
import { runCli } from './run.ts';

// The executable (the package's bin, built to dist/src/cli/main.js; src/cli/dev.mjs runs it from source).
// A .env in the working directory fills in what the environment leaves unset.
const envProblem = loadDotEnv('.env');
if (envProblem) {
  process.stderr.write(`${envProblem}\n`);
  process.exitCode = 2;
} else {
  // Exit code via process.exitCode so pending output is flushed first.
  process.exitCode = await runCli(process.argv);
}
