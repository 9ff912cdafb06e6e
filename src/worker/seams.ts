import type { StreamName } from '../config/types.ts';

/** A half-open time range [from, to) of one backfill window. */
export interface TimeWindow {
  from: Date;
  to: Date;
}

/** What a job asks the engine to do: one stream for one scope, incrementally or over given windows. */
export interface SyncRequest {
  stream: StreamName;
  scope: string;
  mode: 'incremental' | 'backfill';
  /** Backfill only: the windows to read; the incremental cursor is never moved for these. */
  windows?: readonly TimeWindow[];
  emitEvents?: boolean;
}

/** What the engine reports back; `skipped` means another run of this stream and scope held its lease. */
export interface SyncOutcome {
  recordsFetched: number;
  skipped?: boolean;
  runId?: string | number | bigint | null;
}

/** The engine as jobs see it: injected, so jobs never construct clients and tests can substitute it. */
export type SyncRunner = (request: SyncRequest) => Promise<SyncOutcome>;
