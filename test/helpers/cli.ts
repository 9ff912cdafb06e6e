import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildIsCurrent } from '../../scripts/buildInputs.mjs';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';

/**
 * The CLI as tests run it: the build in dist/ when it was built from the sources as they are now
 * (its stamp matches their hash: `npm ci` builds it, `npm run build` rebuilds it), else the
 * TypeScript sources through tsx (src/cli/dev.mjs), so a test always exercises what is in src/
 * right now, with no build needed between an edit and a test run. The build starts in a third of
 * the CPU time tsx needs to compile the sources, and the suite starts the CLI a few hundred times.
 * test/package/ runs the built bin on purpose, building it first.
 */
export const CLI_ENTRY = buildIsCurrent()
  ? path.resolve(import.meta.dirname, '../../dist/src/cli/main.js')
  : path.resolve(import.meta.dirname, '../../src/cli/dev.mjs');

/** The development entry: the TypeScript sources through tsx, whatever dist/ holds. */
export const SOURCE_CLI_ENTRY = path.resolve(import.meta.dirname, '../../src/cli/dev.mjs');

/** The repository root (where package.json is). */
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** Options of a CLI child process. */
export interface CliSpawnOptions {
  /** The whole environment of the child (nothing is inherited unless the caller spreads process.env). */
  env: NodeJS.ProcessEnv;
  /**
   * Working directory; default a neutral temporary one, so a developer's own `.env` in the repository
   * never leaks into a test (the CLI reads `.env` from its working directory).
   */
  cwd?: string;
  stdio?: SpawnOptions['stdio'];
  detached?: boolean;
}

/** Spawns `fulfillment-sync <args>` (the current build, or the sources). */
export function spawnSourceCli(args: readonly string[], options: CliSpawnOptions): ChildProcess {
  return spawn(process.execPath, [CLI_ENTRY, ...args], {
    env: options.env,
    cwd: options.cwd ?? tmpdir(),
    stdio: options.stdio ?? ['pipe', 'pipe', 'pipe'],
    detached: options.detached ?? false,
  });
}

/** What a finished CLI process printed and how it exited. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `fulfillment-sync <args>` (the current build, or the sources) to completion, with optional stdin. */
export function runSourceCli(
  args: readonly string[],
  options: CliSpawnOptions & { input?: string },
): Promise<CliResult> {
  return collect(spawnSourceCli(args, options), options.input);
}

/** Collects a child's output until it exits; writes `input` to its stdin first (then closes it). */
export function collect(child: ChildProcess, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (child.stdin) {
      // A command that exits without reading its stdin closes the pipe first (EPIPE): what it
      // printed and its exit code are the result, not the input nobody read.
      child.stdin.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') reject(error);
      });
      child.stdin.end(input ?? '');
    }
  });
}

/** Non-empty lines of a text. */
export function linesOf(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

/**
 * Runs `fulfillment-sync <args>` in this process through `runCli` (the same parsing, actions and
 * exit codes as the binary, without a Node start), its outputs captured.
 */
export async function runCliInProcess(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const context = createCliContext({
    env,
    print: (line) => {
      stdout += `${line}\n`;
    },
    printError: (line) => {
      stderr += `${line}\n`;
    },
  });
  try {
    return { code: await runCli(['node', 'fulfillment-sync', ...args], context), stdout, stderr };
  } finally {
    // An action that answers "failed" sets the process's exit code: not the test process's.
    process.exitCode = undefined;
  }
}
