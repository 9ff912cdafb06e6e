import type { StreamSettings } from '../config/types.ts';
import type { SplitMemory } from './splitMemory.ts';

/** What a run reads: the scopes, the windows it plans from a cursor. */
/** A supplier id or an account number from the configuration. */
export interface Scope {
  kind: 'supplier' | 'account';
  id: string;
}

/** One slice of work: one API call (or a few) whose answer is written in one transaction. */
export interface Window {
  /** 'minute' and 'day' windows can be halved by adaptive splitting; the others cannot. */
  kind: 'minute' | 'day' | 'snapshot' | 'filter';
  /** Inclusive bounds (minute or day granularity in the configured zone). Unused for 'snapshot'. */
  start: Date;
  end: Date;
  /** Extra query meaning for 'filter' windows (e.g. `{statusCode: 'NEW'}`) or detail keys. */
  filter?: Readonly<Record<string, string>>;
  /** Where the cursor moves once this window is stored; absent: the cursor stays (re-reads). */
  advanceTo?: Date;
}

/** The cursor of one stream and scope as `planWindows` sees it. */
export interface CursorState {
  /** End of the last stored forward window; undefined before the first success. */
  position: Date | undefined;
  lastSuccessAt: Date | undefined;
  /**
   * True while a scope's initial load is unfinished: a run stored some windows of it but has not
   * yet stored all its planned windows (e.g. it failed half-way through the first 30 days).
   */
  initialLoadPending?: boolean;
  /**
   * The oldest time the initial load read from: records first seen later but older than this are
   * history (their events are stored, not delivered). Undefined before the first load.
   */
  loadedFrom?: Date;
  /** The window size that last worked (adaptive windows, see windowSize.ts); undefined: the maximum. */
  windowSize?: number;
  /** The filter splits that worked (splitMemory.ts); undefined: none remembered. */
  split?: SplitMemory;
}

/** Everything `planWindows` may look at; pure, no I/O. */
export interface PlanInput {
  cursor: CursorState;
  now: Date;
  settings: StreamSettings;
  timezone: string;
  /** Where a scope's first run starts (config.syncStart, else 30 days before now). */
  start: Date;
}
