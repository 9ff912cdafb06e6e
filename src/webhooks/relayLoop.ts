import type pg from 'pg';
import { EVENTS_CHANNEL } from '../events/outbox.ts';
import { type Enqueue, relayOnce } from './relay.ts';

export interface RelayLoopOptions {
  pool: pg.Pool;
  /** The fast path to the sender, after each commit (see relay.ts). */
  enqueue?: Enqueue;
  /** Opens a dedicated LISTEN connection; without it the loop only polls. */
  connectListener?: () => Promise<pg.Client>;
  /** Polling fallback (default 5 s): also picks up events whose notification was missed. */
  intervalMs?: number;
  /** Longest wait between attempts to re-open a lost LISTEN connection (default 30 s). */
  maxListenBackoffMs?: number;
  onError?: (error: Error) => void;
  onEnqueueError?: (error: Error) => void;
}

/**
 * Runs the relay whenever `fulfillment_events` is notified and every `intervalMs` anyway. Several
 * processes may run it: SKIP LOCKED keeps them from claiming the same rows. A LISTEN connection
 * that drops (Postgres restarting) is re-opened with backoff; meanwhile polling carries on.
 * `stop()` waits for the current pass.
 */
export async function startRelayLoop(options: RelayLoopOptions): Promise<{ stop: () => Promise<void> }> {
  let running: Promise<unknown> = Promise.resolve();
  let again = false;
  let stopped = false;
  const pass = async (): Promise<void> => {
    do {
      again = false;
      try {
        await relayOnce({
          pool: options.pool,
          enqueue: options.enqueue,
          onEnqueueError: options.onEnqueueError,
        });
      } catch (error) {
        options.onError?.(error as Error);
      }
    } while (again && !stopped);
  };
  let busy = false;
  const wake = () => {
    if (stopped) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    running = pass().finally(() => {
      busy = false;
    });
  };
  const listen = options.connectListener
    ? await keepListening(options.connectListener, wake, {
        maxBackoffMs: options.maxListenBackoffMs ?? 30_000,
        onError: (error) => options.onError?.(error),
        isStopped: () => stopped,
      })
    : undefined;
  const timer = setInterval(wake, options.intervalMs ?? 5000);
  wake();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      await listen?.close();
    },
  };
}

/**
 * Holds a LISTEN connection open: when it fails or ends, opens a new one after 1 s, 2 s, 4 s ...
 * up to `maxBackoffMs`, and wakes the relay once it listens again (events committed meanwhile
 * were announced to nobody).
 */
async function keepListening(
  connect: () => Promise<pg.Client>,
  onNotification: () => void,
  options: { maxBackoffMs: number; onError: (error: Error) => void; isStopped: () => boolean },
): Promise<{ close: () => Promise<void> }> {
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  const open = async (): Promise<void> => {
    if (options.isStopped()) return;
    let opened: pg.Client | undefined;
    try {
      const next = await connect();
      opened = next;
      next.on('notification', onNotification);
      next.on('error', (error) => lost(next, error));
      next.on('end', () => lost(next, new Error('LISTEN connection ended')));
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
      client = next;
      if (failures > 0) onNotification();
      failures = 0;
    } catch (error) {
      // Connected but not listening (LISTEN failed): close it, or every attempt leaves one open.
      opened?.end().catch(() => undefined);
      failures += 1;
      const waitMs = Math.min(1000 * 2 ** (failures - 1), options.maxBackoffMs);
      options.onError(
        new Error(`LISTEN ${EVENTS_CHANNEL} failed (${(error as Error).message}); retrying in ${waitMs} ms`),
      );
      retry = setTimeout(() => void open(), waitMs);
    }
  };
  const lost = (which: pg.Client, error: Error) => {
    if (client !== which || options.isStopped()) return;
    client = undefined;
    which.end().catch(() => undefined);
    failures = Math.max(failures, 1);
    options.onError(new Error(`LISTEN connection lost (${error.message}); reconnecting`));
    retry = setTimeout(() => void open(), 1000);
  };
  await open();
  return {
    close: async () => {
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
