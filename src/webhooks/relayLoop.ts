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
  onError?: (error: Error) => void;
  onEnqueueError?: (error: Error) => void;
}

/**
 * Runs the relay whenever `fulfillment_events` is notified and every `intervalMs` anyway. Several
 * processes may run it: SKIP LOCKED keeps them from claiming the same rows. `stop()` waits for the
 * current pass.
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
  let listener: pg.Client | undefined;
  if (options.connectListener) {
    try {
      listener = await options.connectListener();
      listener.on('notification', wake);
      listener.on('error', (error) => options.onError?.(error));
      await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (error) {
      options.onError?.(error as Error);
    }
  }
  const timer = setInterval(wake, options.intervalMs ?? 5000);
  wake();
  return {
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      await listener?.end().catch(() => undefined);
    },
  };
}
