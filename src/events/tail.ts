import type pg from 'pg';
import { EVENT_COLUMNS, type EventRow, eventFromRow } from './eventRow.ts';
import { EVENTS_CHANNEL } from './outbox.ts';
import type { DerivedEvent } from './types.ts';

/**
 * How far below the highest printed `seq` each read looks again: sequence values commit out of
 * order, so an event committed late by a concurrent transaction can carry a smaller seq.
 */
const LATE_COMMIT_SLACK = 1000;

export interface TailOptions {
  /** Opens a dedicated connection for LISTEN (a pg.Client); null/undefined: polling only. */
  connectListener?: () => Promise<pg.Client>;
  pool: Pick<pg.Pool, 'query'>;
  type?: string | undefined;
  onEvent: (event: DerivedEvent) => void;
  /** The polling fallback's interval (default 2 s); notifications wake the reader at once. */
  pollMs?: number;
  signal: AbortSignal;
  onListenError?: (error: Error) => void;
  /** Called once the starting point is fixed and LISTEN is set up: events committed after it are printed. */
  onReady?: () => void;
}

/**
 * Prints events committed from now on: LISTEN fulfillment_events wakes the reader, a timer reads
 * anyway (the fallback when LISTEN is unavailable or drops). Each event is emitted once. Resolves
 * when `signal` aborts.
 */
export async function tailEvents(options: TailOptions): Promise<void> {
  const { rows } = await options.pool.query('SELECT coalesce(max(seq), 0)::bigint AS seq FROM sync.events');
  let highest = BigInt(rows[0]?.seq ?? 0);
  const startedAt = highest;
  const printed = new Set<string>();
  let reading: Promise<void> = Promise.resolve();

  const read = async () => {
    const from =
      highest - BigInt(LATE_COMMIT_SLACK) > startedAt ? highest - BigInt(LATE_COMMIT_SLACK) : startedAt;
    const result = await options.pool.query(
      `SELECT ${EVENT_COLUMNS}, seq FROM sync.events
        WHERE seq > $1 AND ($2::text IS NULL OR type = $2) ORDER BY seq`,
      [from.toString(), options.type ?? null],
    );
    for (const row of result.rows as Array<EventRow & { seq: string }>) {
      const seq = BigInt(row.seq);
      if (seq > highest) highest = seq;
      if (printed.has(row.id)) continue;
      printed.add(row.id);
      options.onEvent(eventFromRow(row));
    }
    if (printed.size > 4 * LATE_COMMIT_SLACK) trimOldest(printed, 2 * LATE_COMMIT_SLACK);
  };
  // A burst of notifications (a first load commits thousands at once) queues at most one more read.
  let queued = false;
  const wake = () => {
    if (queued) return;
    queued = true;
    reading = reading.then(async () => {
      queued = false;
      // A failed read (database restarting) is reported; the next wake or tick tries again.
      await read().catch((error: Error) => options.onListenError?.(error));
    });
  };

  const listener = await openListener(options, wake);
  const timer = setInterval(wake, options.pollMs ?? 2000);
  options.onReady?.();
  try {
    await new Promise<void>((resolve) => {
      if (options.signal.aborted) resolve();
      options.signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } finally {
    clearInterval(timer);
    await reading.catch(() => undefined);
    await listener?.end().catch(() => undefined);
  }
}

async function openListener(options: TailOptions, wake: () => void): Promise<pg.Client | undefined> {
  if (!options.connectListener) return undefined;
  let client: pg.Client | undefined;
  try {
    client = await options.connectListener();
    client.on('notification', wake);
    // A dropped listener leaves the timer as the fallback.
    client.on('error', (error) => options.onListenError?.(error));
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    return client;
  } catch (error) {
    options.onListenError?.(error as Error);
    // Connected but not listening: the connection is of no use, and must not stay open.
    await client?.end().catch(() => undefined);
    return undefined;
  }
}

function trimOldest(set: Set<string>, keep: number): void {
  const excess = set.size - keep;
  let removed = 0;
  for (const id of set) {
    if (removed++ >= excess) break;
    set.delete(id);
  }
}
