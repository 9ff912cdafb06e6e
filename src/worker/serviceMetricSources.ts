import type { Pool } from 'pg';
import { pollingRule } from '../config/pollingRule.ts';
import type { Config } from '../config/types.ts';
import { EVENT_TYPES } from '../events/types.ts';
import { deliveryMetrics, eventFamily } from '../http/deliveryMetrics.ts';
import { freshnessMetrics } from '../http/freshnessMetrics.ts';
import { sharedRead } from '../http/metricKinds.ts';
import {
  type EndpointFigures,
  metrics,
  setEndpointFiguresSource,
  setEndpointStateSource,
  setReadinessSource,
} from '../http/metrics.ts';
import type { PollPlan } from '../polling/pollPlan.ts';
import { endpointStats, STATS_WINDOW_MS } from '../webhooks/views/endpointStats.ts';

/** A readiness check as /readyz runs it: resolves true (or undefined) when ready. */
type Check = () => Promise<boolean | undefined> | boolean | undefined;

/**
 * Feeds the gauges alerts need beyond the counters: each stream's freshness target or cadence and
 * the interval it is polled at (lag over three of the longer), webhook endpoints by state (one
 * disabled), per-endpoint delivery figures (one disabled by its failures, success rate, latency) and
 * readiness per dependency (Redis not ready); and starts the counters and histograms alerts and
 * panels read at 0.
 */
export function wireServiceMetricSources(args: {
  config: Pick<Config, 'streams'>;
  /** The polling plan the worker's schedules follow: each stream's interval (unset: not published). */
  plan?: PollPlan;
  pool: Pool;
  readiness: Readonly<Record<string, Check>>;
  checkTimeoutMs?: number;
}): void {
  setPollingGauges(args.config.streams);
  for (const poll of args.plan?.streams ?? []) {
    if (poll.intervalSeconds !== null)
      freshnessMetrics.pollInterval.set({ stream: poll.stream }, poll.intervalSeconds);
  }
  startAtZero(args.config.streams);
  setEndpointStateSource(async () => {
    const res = await args.pool.query<{ enabled: boolean; n: number }>(
      'SELECT enabled, count(*)::int AS n FROM sync.webhook_endpoints GROUP BY enabled',
    );
    return res.rows.map((r) => ({ state: r.enabled ? 'enabled' : 'disabled', count: r.n }));
  });
  setEndpointFiguresSource(endpointFiguresOnce(args.pool));
  const timeoutMs = args.checkTimeoutMs ?? 1000;
  setReadinessSource(() =>
    Promise.all(
      Object.entries(args.readiness).map(async ([check, run]) => ({
        check,
        ready: await withTimeout(run, timeoutMs),
      })),
    ),
  );
}

/**
 * Each stream's freshness target, or its cadence where that governs its polling (explicitly set, or
 * no target): one of the two per scheduled stream, so its lag alert compares with what it aims for.
 */
function setPollingGauges(streams: Config['streams']): void {
  for (const [stream, settings] of Object.entries(streams)) {
    const rule = pollingRule(settings);
    if (rule.kind === 'target') freshnessMetrics.freshnessTarget.set({ stream }, rule.seconds);
    if (rule.kind === 'cadence') metrics.streamCadence.set({ stream }, rule.seconds);
  }
}

/**
 * The counters and histograms alerts and panels take increase() or rate() of start at 0: a series
 * that first appears at 1 (the first failed prune after a restart, the first rejected record, the
 * first delivery of a family)
 * shows no increase, and the alert or the panel would miss it. Bounded: the outcomes, the streams
 * and the event families of the catalogue.
 */
function startAtZero(streams: Config['streams']): void {
  for (const outcome of ['completed', 'interrupted', 'skipped', 'failed'])
    metrics.pruneRuns.inc({ outcome }, 0);
  for (const outcome of ['delivered', 'retried', 'failed']) metrics.webhookDeliveries.inc({ outcome }, 0);
  for (const [stream, settings] of Object.entries(streams)) {
    metrics.syncRuns.inc({ stream, outcome: 'failed' }, 0);
    metrics.rows.inc({ stream, outcome: 'rejected' }, 0);
    if (pollingRule(settings).kind !== 'on-demand') {
      freshnessMetrics.runDuration.zero({ stream, mode: 'incremental' });
    }
  }
  for (const family of new Set(EVENT_TYPES.map(eventFamily))) {
    deliveryMetrics.changeToDelivery.zero({ family });
    deliveryMetrics.detectionToDelivery.zero({ family });
  }
}

/** How long one reading of the per-endpoint figures serves the gauges (one scrape reads it 7 times). */
const FIGURES_TTL_MS = 10_000;

/**
 * The per-endpoint figures of `webhooks stats` (last 24 hours), read with one query and reused for
 * FIGURES_TTL_MS, so a scrape costs one query whatever the number of gauges.
 */
export function endpointFiguresOnce(
  pool: Pick<Pool, 'query'>,
  now: () => Date = () => new Date(),
): () => Promise<EndpointFigures[]> {
  const read = async () => {
    const all = await endpointStats(pool, { since: new Date(now().getTime() - STATS_WINDOW_MS) });
    return all.map((s) => ({
      endpoint: s.endpointId,
      enabled: s.enabled,
      disabledBy: s.disabledBy,
      attempts: s.attempts,
      successRate: s.successRate,
      lastSuccessAt: s.lastSuccessAt,
      lastFailureAt: s.lastFailureAt,
      p50Ms: s.p50Ms,
      p95Ms: s.p95Ms,
    }));
  };
  return sharedRead(read, FIGURES_TTL_MS, now);
}

async function withTimeout(check: Check, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    const result = Promise.resolve()
      .then(check)
      .then((ok) => ok !== false)
      .catch(() => false);
    return await Promise.race([result, late]);
  } finally {
    clearTimeout(timer);
  }
}
