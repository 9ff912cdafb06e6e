import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config/types.ts';
import type { EventSink, FetchProgress, Scope, StreamDefinition, Window } from './types.ts';

/** Arguments of `runStream`. */
export interface RunStreamArgs<R, C> {
  pool: Pool;
  client: C;
  config: Config;
  logger: Logger;
  stream: StreamDefinition<R, C>;
  scope: Scope;
  /** 'backfill': windows usually given explicitly; the cursor is never created or moved. */
  mode?: 'incremental' | 'backfill';
  /** Windows to run instead of the stream's plan (backfill, tests). */
  windows?: readonly Window[];
  eventSink?: EventSink;
  /** Deliver events that would be history (`--emit-events`). */
  emitEvents?: boolean;
  /** The current time (the simulator's clock in tests); default: now. */
  now?: Date;
  /** 'wait' (default): a second run of the same stream and scope waits; 'skip': it answers skipped. */
  lockMode?: 'wait' | 'skip';
  /** How long the run's lease lasts without renewal (default 30 s). */
  leaseTtlMs?: number;
  /** Progress of fetches that make one call per record (order details): `sync --once` shows it. */
  onFetchProgress?: (progress: FetchProgress) => void;
}
