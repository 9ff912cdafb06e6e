import type { Pool } from 'pg';
import type { Config } from '../config/types.ts';
import { metrics, setEndpointStateSource, setReadinessSource } from '../http/metrics.ts';

/** A readiness check as /readyz runs it: resolves true (or undefined) when ready. */
type Check = () => Promise<boolean | undefined> | boolean | undefined;

/**
 * Feeds the gauges alerts need beyond the counters: each stream's cadence (lag over three cadences),
 * webhook endpoints by state (one disabled) and readiness per dependency (Redis not ready).
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
