import type { Verdict } from './scorecard.ts';
import type { ChaosServices } from './services.ts';

/** What a scenario gets: the private services, the verdict it fills, and cleanup-aware helpers. */
export interface ChaosContext {
  services: ChaosServices;
  /** The short variant (CI): fewer kills, a shorter simulated span; the same guarantees. */
  short: boolean;
  verdict: Verdict;
  /** Creates and migrates a database of its own on the private Postgres; answers its URL. */
  newDatabase(label: string): Promise<string>;
  /** A Redis key prefix of its own (queues, rate limits), on the private Redis. */
  prefix(label: string): string;
  /** Runs `cleanup` when the scenario ends, pass or fail (last registered runs first). */
  defer(cleanup: () => Promise<void> | void): void;
  /** A progress line on stderr, prefixed with the scenario. */
  log(line: string): void;
}

export interface Scenario {
  id: number;
  title: string;
  run(ctx: ChaosContext): Promise<void>;
}
