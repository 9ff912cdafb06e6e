import { collectDefaultMetrics } from 'prom-client';
import { metricsRegistry } from './metrics.ts';

let collecting = false;

/**
 * Adds prom-client's process and runtime metrics (process_* memory, CPU and file descriptors;
 * nodejs_* heap, event-loop lag and GC) to the registry /metrics serves, so the dashboard can show a
 * leak or a blocked loop. Only long-running commands (the worker) call it: the event-loop monitor and
 * GC observer cost nothing a one-shot CLI command would use. Idempotent, since prom-client refuses to
 * register the same names twice.
 */
export function collectProcessMetrics(): void {
  if (collecting) return;
  collecting = true;
  collectDefaultMetrics({ register: metricsRegistry });
}
