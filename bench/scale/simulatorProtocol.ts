/** The messages between the scale benchmark and its simulator process (simulatorProcess.ts). */

/** Sent once the world is built and the server listens. */
export interface SimulatorReady {
  kind: 'ready';
  url: string;
  /** The manual clock, ms since the epoch. */
  now: number;
  suppliers: string[];
  accounts: string[];
  /** How long building the world (its history included) took. */
  buildMs: number;
}

export type SimRequest =
  | { kind: 'advance'; id: number; minutes: number }
  | { kind: 'counts'; id: number }
  | { kind: 'close' };

export type SimReply =
  | { kind: 'advanced'; id: number; now: number; ms: number }
  | {
      kind: 'counts';
      id: number;
      /** API requests answered so far, by operation ("GET Shipments/Updates"). */
      calls: Record<string, number>;
      /** Of those, answers that were not 2xx, by operation. */
      failures: Record<string, number>;
    };
