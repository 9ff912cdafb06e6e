import type { StreamName } from '../config/types.ts';
import type { Scope } from './window.ts';

/** Counts of one window or one whole run. */
export interface RunCounts {
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  apiCalls: number;
  events: number;
}

export type RunStatus = 'succeeded' | 'partial' | 'failed' | 'skipped';

/** What `runStream` answers for one stream and scope. */
export interface StreamRunResult extends RunCounts {
  stream: StreamName;
  scope: Scope;
  status: RunStatus;
  windows: number;
  error?: string;
  /**
   * Set when upstream's Retry-After failed the run (a 429 or 503 longer than the client waits
   * in-process): the job queue should pause this long rather than retry at once.
   */
  retryAfterMs?: number;
  /** Snapshot windows whose vanish detection was suspended (a rejected row's key was unreadable). */
  vanishChecksSkipped?: number;
  /** Answers whose large shrink no second read confirmed, and the rows they kept (confirmShrink.ts). */
  vanishWithheld?: { answers: number; rows: number };
  /** Records repaired (stored with an unstorable character removed or replaced). */
  repaired?: number;
  /** Detail calls that failed this run (the records are retried later with backoff). */
  detailFailures?: number;
  /** The sync.runs row of the last window this run stored. */
  lastRunId?: number;
  /** Adaptive windows: the size this run planned with, and the next run's when it changed. */
  windowSize?: { planned: number; next?: number; reason?: string };
}
