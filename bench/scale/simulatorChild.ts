/** The parent's handle on the simulator process (simulatorProcess.ts): start, advance, counts, close. */
import { fork } from 'node:child_process';
import type { SimulatorOptions } from '../../src/simulator/core.ts';
import type { SimReply, SimRequest, SimulatorReady } from './simulatorProtocol.ts';

/** A running simulator process. */
export interface SimulatorChild {
  url: string;
  suppliers: string[];
  accounts: string[];
  buildMs: number;
  /** The manual clock now (ms since the epoch), as of the last start or advance. */
  now(): number;
  /** Moves the clock (and the world with it) forward; answers how long the world took to catch up. */
  advance(minutes: number): Promise<{ now: number; ms: number }>;
  /** API requests answered so far, by operation. */
  counts(): Promise<{ calls: Record<string, number>; failures: Record<string, number> }>;
  close(): Promise<void>;
}

/** Forks the simulator with a manual clock at `options.start`. */
export function startSimulatorChild(
  options: Omit<SimulatorOptions, 'start' | 'clock'> & { start: Date },
): Promise<SimulatorChild> {
  const compiled = import.meta.url.endsWith('.js');
  const script = new URL(compiled ? './simulatorProcess.js' : './simulatorProcess.ts', import.meta.url);
  const child = fork(script, [JSON.stringify({ ...options, start: options.start.toISOString() })], {
    execArgv: compiled ? [] : ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pending = new Map<number, (reply: SimReply) => void>();
  let nextId = 1;
  const ask = <K extends SimReply['kind']>(request: SimRequest): Promise<Extract<SimReply, { kind: K }>> =>
    new Promise((resolve) => {
      pending.set((request as { id: number }).id, resolve as (reply: SimReply) => void);
      child.send(request);
    });

  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`the simulator process exited (${code}) before it was ready`)),
    );
    child.on('message', (message: SimulatorReady | SimReply) => {
      if (message.kind !== 'ready') {
        pending.get(message.id)?.(message);
        pending.delete(message.id);
        return;
      }
      let now = message.now;
      resolve({
        url: message.url,
        suppliers: message.suppliers,
        accounts: message.accounts,
        buildMs: message.buildMs,
        now: () => now,
        advance: async (minutes) => {
          const reply = await ask<'advanced'>({ kind: 'advance', id: nextId++, minutes });
          now = reply.now;
          return { now: reply.now, ms: Math.round(reply.ms) };
        },
        counts: async () => {
          const reply = await ask<'counts'>({ kind: 'counts', id: nextId++ });
          return { calls: reply.calls, failures: reply.failures };
        },
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.send({ kind: 'close' } satisfies SimRequest);
          }),
      });
    });
  });
}
