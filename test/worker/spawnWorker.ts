import type { ChildProcess } from 'node:child_process';
import { spawnSourceCli } from '../helpers/cli.ts';
import { waitFor } from '../helpers/waitFor.ts';

/** A `fulfillment-sync worker` child process and its log lines. */
export interface WorkerProcess {
  child: ChildProcess;
  lines: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  waitForLog: (pattern: RegExp, timeoutMs?: number) => Promise<void>;
}

/** Spawns the real CLI worker with `env` added to the current environment. */
export function spawnWorker(env: Record<string, string>): WorkerProcess {
  const child = spawnSourceCli(['worker'], {
    env: { ...process.env, LOG_LEVEL: 'info', HTTP_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const collect = (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    lines,
    exited,
    waitForLog: (pattern, timeoutMs = 30_000) =>
      waitFor(`log ${pattern}`, () => lines.some((l) => pattern.test(l)), timeoutMs),
  };
}
