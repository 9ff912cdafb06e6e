import { runCli } from './run.ts';

// Entry point of bin.mjs: exit code via process.exitCode so pending output is flushed first.
process.exitCode = await runCli(process.argv);
