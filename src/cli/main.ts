#!/usr/bin/env node
import { loadDotEnv } from '../config/envFile.ts';
import { runCli } from './run.ts';

// The executable (the package's bin, built to dist/src/cli/main.js; src/cli/dev.mjs runs it from source).
// A reader that went away (`fulfillment-sync demo | head`) ends the command quietly: what it would
// still print has no one to read it, and that is the user's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

// A .env in the working directory fills in what the environment leaves unset.
const envProblem = loadDotEnv('.env');
if (envProblem) {
  process.stderr.write(`${envProblem}\n`);
  process.exitCode = 2;
} else {
  // A command that succeeded ends on its own once its work is done (exit code via process.exitCode,
  // so pending output is flushed first). A command that failed has printed its one line and ends
  // now: whatever it had half opened (a pool mid-connect, a Redis connection retrying, an
  // in-process simulator) must not keep it alive.
  const code = await runCli(process.argv);
  process.exitCode = code;
  if (code !== 0) process.exit(code);
}
