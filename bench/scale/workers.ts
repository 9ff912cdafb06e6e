/**
 * Three (or n) real `fulfillment-sync worker` processes: the CLI compiled with the benchmark
 * (dist-bench/src/cli/main.js, or the sources through tsx), each with the virtual clock preloaded.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CONFIG_ENV_VARS } from '../../src/config/envSchema.ts';

/** A worker's log line worth reporting (pino level >= warn). */
export interface WorkerComplaint {
  worker: number;
  level: number;
  msg: string;
  detail: string;
}

/** The running workers. */
export interface WorkerSet {
  /** Moves every worker's wall clock to `offsetMs` from the real one; resolves once all applied it. */
  setClockOffset(offsetMs: number): Promise<void>;
  /** Warnings and errors logged so far. */
  complaints: WorkerComplaint[];
  /** How long from spawning until every worker logged "worker started". */
  startMs: number;
  /** SIGTERM, then waits for every exit; answers the exit codes. */
  stop(): Promise<(number | null)[]>;
}

const compiled = import.meta.url.endsWith('.js');
const CLI = fileURLToPath(
  new URL(compiled ? '../../src/cli/main.js' : '../../src/cli/main.ts', import.meta.url),
);
const CLOCK = new URL(compiled ? './virtualClock.js' : './virtualClock.ts', import.meta.url).href;

/** Spawns `count` workers with `env` (added to this process's) and waits until each has started. */
export async function startWorkers(
  count: number,
  env: Record<string, string>,
  clockOffsetMs: number,
  startTimeoutMs = 120_000,
): Promise<WorkerSet> {
  const started = performance.now();
  const complaints: WorkerComplaint[] = [];
  const children: ChildProcess[] = [];
  const ready: Promise<void>[] = [];
  // Nothing of this shell's own configuration (a DATABASE_URL, a rate limit) leaks into the workers.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !(CONFIG_ENV_VARS as string[]).includes(k)),
  );
  for (let i = 0; i < count; i++) {
    const child = spawn(
      process.execPath,
      [...(compiled ? [] : ['--import', 'tsx']), '--import', CLOCK, CLI, 'worker'],
      {
        env: {
          ...inherited,
          LOG_LEVEL: 'info',
          HTTP_PORT: '0',
          ...env,
          BENCH_CLOCK_OFFSET_MS: String(clockOffsetMs),
        },
        // A neutral directory: the CLI reads .env from its working directory.
        cwd: tmpdir(),
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      },
    );
    children.push(child);
    ready.push(
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`worker ${i} did not start within ${startTimeoutMs} ms`)),
          startTimeoutMs,
        );
        let rest = '';
        child.stderr?.on('data', (chunk: Buffer) => {
          const lines = (rest + chunk.toString()).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) {
            let entry: { level?: number; msg?: string; [k: string]: unknown };
            try {
              entry = JSON.parse(line);
            } catch {
              complaints.push({ worker: i, level: 50, msg: line, detail: '' });
              continue;
            }
            if (entry.msg === 'worker started') {
              clearTimeout(timer);
              resolve();
            }
            if ((entry.level ?? 0) >= 40) {
              const { level, msg, time, pid, hostname, ...detail } = entry;
              complaints.push({
                worker: i,
                level: level ?? 0,
                msg: msg ?? '',
                detail: JSON.stringify(detail),
              });
            }
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`worker ${i} exited (${code}) before it started`));
        });
      }),
    );
  }
  try {
    await Promise.all(ready);
  } catch (error) {
    for (const c of children) c.kill('SIGKILL');
    throw error;
  }
  return {
    complaints,
    startMs: Math.round(performance.now() - started),
    setClockOffset: (offsetMs) =>
      Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              const ack = (message: { clockOffsetMs?: number }) => {
                if (message?.clockOffsetMs !== offsetMs) return;
                child.off('message', ack);
                resolve();
              };
              child.on('message', ack);
              child.send({ clockOffsetMs: offsetMs });
            }),
        ),
      ).then(() => undefined),
    stop: () =>
      Promise.all(
        children.map(
          (child) =>
            new Promise<number | null>((resolve) => {
              if (child.exitCode !== null) return resolve(child.exitCode);
              child.removeAllListeners('exit');
              child.once('exit', (code) => resolve(code));
              child.kill('SIGTERM');
            }),
        ),
      ),
  };
}
