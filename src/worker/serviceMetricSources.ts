import type { Pool } from 'pg';
import type { Config } from '../config/types.ts';
import {
  type EndpointFigures,
  metrics,
  setEndpointFiguresSource,
  setEndpointStateSource,
  setReadinessSource,
} from '../http/metrics.ts';
import { endpointStats, STATS_WINDOW_MS } from '../webhooks/endpointStats.ts';

/** A readiness check as /readyz runs it: resolves true (or undefined) when ready. */
type Check = () => Promise<boolean | undefined> | boolean | undefined;

/**
 * Feeds the gauges alerts need beyond the counters: each stream's cadence (lag over three cadences),
 * webhook endpoints by state (one disabled), per-endpoint delivery figures (one disabled by its
 * failures, success rate, latency) and readiness per dependency (Redis not ready).
 */
export function wireServiceMetricSources(args: {
  config: Pick<Config, 'streams'>;
  pool: Pool;
  readiness: Readonly<Record<string, Check>>;
  checkTimeoutMs?: number;
}): void {
  for (const [stream, settings] of Object.entries(args.config.streams)) {
    if (settings.cadenceMinutes > 0) metrics.streamCadence.set({ stream }, settings.cadenceMinutes * 60);
  }
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
  let cached: { at: number; figures: Promise<EndpointFigures[]> } | undefined;
  return () => {
    const at = now().getTime();
    if (!cached || at - cached.at > FIGURES_TTL_MS) {
      const figures = endpointStats(pool, { since: new Date(at - STATS_WINDOW_MS) }).then((all) =>
        all.map((s) => ({
          endpoint: s.endpointId,
          enabled: s.enabled,
          disabledBy: s.disabledBy,
          attempts: s.attempts,
          successRate: s.successRate,
          lastSuccessAt: s.lastSuccessAt,
          lastFailureAt: s.lastFailureAt,
          p50Ms: s.p50Ms,
          p95Ms: s.p95Ms,
        })),
      );
      // A failed read is not kept: the next scrape tries again.
      figures.catch(() => {
        if (cached?.figures === figures) cached = undefined;
      });
      cached = { at, figures };
    }
    return cached.figures;
  };
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
