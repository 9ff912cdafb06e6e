import type pg from 'pg';
import { EVENTS_CHANNEL } from '../../../events/outbox.ts';
import { keepListening } from '../listen.ts';
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
    ? await keepListening(options.connectListener, EVENTS_CHANNEL, wake, {
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
