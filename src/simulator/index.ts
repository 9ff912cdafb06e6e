import type { AddressInfo } from 'node:net';
import type { SimClock } from './clock.ts';
import { SimulatorCore, type SimulatorOptions } from './core.ts';
import type { FaultOptions } from './faults.ts';
import type { PoisonReport } from './poison/types.ts';
import { createSimServer } from './server.ts';
import type { SimTruth } from './truth.ts';
import type { World } from './world/state.ts';

export type { SimulatorOptions, VolumeOptions } from './core.ts';
export { CORRUPTIONS, FAULT_KINDS, type FaultKind, type FaultOptions } from './faults.ts';
export { excludedKeys, repairStrings, repairText, truthAsSynced } from './poison/expected.ts';
export {
  POISON_KINDS,
  type PoisonExpectation,
  type PoisonedRecord,
  type PoisonKind,
  type PoisonOptions,
  type PoisonReport,
  type PoisonStream,
} from './poison/types.ts';
export type { DatedActivity, SimTruth } from './truth.ts';

/** A running simulator. */
export interface RunningSimulator {
  /** Base URL, e.g. http://127.0.0.1:4010 (the API is under /api/v1). */
  url: string;
  /** The token URL for client credentials. */
  tokenUrl: string;
  clock: SimClock;
  world: World;
  /** Moves a manual clock (and the world) forward. */
  advance(minutes: number): void;
  /** The complete current state as spec records, plus the change history. */
  truth(): SimTruth;
  /** What the poison scenario has poisoned so far, as GET /_sim/poison (undefined without it). */
  poison(): PoisonReport | undefined;
  /** Replaces the fault configuration (restarting the fault stream from its seed). */
  setFaults(options: FaultOptions): void;
  /** How many faults of each kind were injected since the start. */
  faultTally(): Record<string, number>;
  /** Sets the row cap of list answers (undefined: none), as the `rowCap` option does at start. */
  setRowCap(cap: number | undefined): void;
  /** Stops listening and destroys open connections (including deliberately stalled ones). */
  close(): Promise<void>;
}

/**
 * Starts the stateful fake of the fulfillment API on an HTTP port (0 = ephemeral).
 * @example const sim = await startSimulator({ seed: 42, clock: 'manual', start: new Date('2026-11-01T07:00:00Z') });
 */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  const core = new SimulatorCore(options);
  const { server, closeAll } = createSimServer(core);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    tokenUrl: `${url}/oauth/token`,
    clock: core.clock,
    world: core.world,
    advance: (minutes) => core.advance(minutes),
    truth: () => core.truth(),
    poison: () => core.poisonReport(),
    setFaults: (faults) => core.faults.configure(faults),
    faultTally: () => ({ ...core.faults.tally }),
    setRowCap: (cap) => {
      core.rowCap = cap;
    },
    close: () =>
      new Promise<void>((resolve) => {
        closeAll();
        server.close(() => resolve());
      }),
  };
}

export { SimulatorCore };
