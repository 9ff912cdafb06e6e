import type { StreamName } from '../config/types.ts';
import type { Queryable } from '../db/queryable.ts';
import type { Scope } from './window.ts';

/** How the window's events are delivered: decided per change, the same for every kind of run. */
export interface EventPolicy {
  /** The scope's initial load is unfinished: every event is history (stored, not delivered). */
  initialLoad: boolean;
  /** Records first seen now whose event time is older than this are history too. */
  historyBefore: Date | undefined;
  /** Deliver even history (`--emit-events`, FULFILLMENT_DELIVER_INITIAL_EVENTS). */
  deliverHistory: boolean;
}

/**
 * Turns a window's changes into outbox events inside its transaction; returns how many were newly
 * stored. Built by src/events (`createEventSink`); absent: no events.
 */
export type EventSink = (args: {
  tx: Queryable;
  stream: StreamName;
  scope: Scope;
  subjectKind: string;
  changes: ReadonlyArray<{
    kind: 'inserted' | 'updated';
    previous: unknown;
    current: unknown;
  }>;
  detectedAt: Date;
  policy: EventPolicy;
  /** The sync.runs id of this window's run (written in the same transaction), for `run_id`. */
  runId: number;
}) => Promise<number>;
