import { Counter, Gauge, Histogram } from 'prom-client';
import { metricsRegistry } from './registry.ts';

/**
 * The kinds of metric the service defines, all in its one registry: counters and gauges set by the
 * code that knows the value, histograms, and gauges read at scrape time from a source the worker
 * wires (Postgres, Redis).
 */

/** A counter in the service's registry. */
export function counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Counter<L> {
  return new Counter({ name, help, labelNames, registers: [metricsRegistry] });
}

/** A gauge in the service's registry, set by the code that knows the value. */
export function gauge<L extends string>(name: string, help: string, labelNames: readonly L[]): Gauge<L> {
  return new Gauge({ name, help, labelNames, registers: [metricsRegistry] });
}

/** A histogram in the service's registry. */
export function histogram<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  buckets: readonly number[],
): Histogram<L> {
  return new Histogram({ name, help, labelNames, buckets: [...buckets], registers: [metricsRegistry] });
}

/** One series of a scraped gauge: its labels and value. */
export type Series<L extends string> = [Partial<Record<L, string>>, number];

/**
 * A gauge read at scrape time: `read` gives its series, or undefined while no source is set. A read
 * that fails (Postgres or Redis briefly away) does not fail the scrape; fulfillment_ready and
 * /readyz say what is away. The gauge keeps its last values, or with `replaceSeries` starts every
 * scrape empty, so a series the read no longer returns disappears (and a failed read shows none).
 */
export function scrapedGauge<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[],
  read: () => Promise<Series<L>[] | undefined>,
  options: { replaceSeries?: boolean } = {},
): Gauge<L> {
  return new Gauge({
    name,
    help,
    labelNames,
    registers: [metricsRegistry],
    async collect() {
      if (options.replaceSeries) this.reset();
      let series: Series<L>[] | undefined;
      try {
        series = await read();
      } catch {
        return;
      }
      for (const [labels, value] of series ?? []) this.set(labels, value);
    },
  });
}

/**
 * A read that several gauges of one scrape share: the first call reads, calls within `ttlMs` reuse
 * its answer, so a scrape costs one query whatever the number of gauges over it. A failed read is
 * not kept: the next call tries again.
 */
export function sharedRead<T>(
  read: () => Promise<T>,
  ttlMs: number,
  now: () => Date = () => new Date(),
): () => Promise<T> {
  let cached: { at: number; value: Promise<T> } | undefined;
  return () => {
    const at = now().getTime();
    if (!cached || at - cached.at > ttlMs) {
      const value = read();
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
      cached = { at, value };
    }
    return cached.value;
  };
}
