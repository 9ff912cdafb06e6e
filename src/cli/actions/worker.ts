import { AnalyticsRefresher } from '../../analytics/refresher.ts';
import { markWindowFinished } from '../../backfill/windowsStore.ts';
import { createHttpApp } from '../../http/app.ts';
import { recordWebhookOutcome } from '../../http/metricsHooks.ts';
import { removePortFile, writePortFile } from '../../http/portFile.ts';
import { collectProcessMetrics } from '../../http/processMetrics.ts';
import { postgresReady, redisReady, schedulesReady } from '../../http/readiness.ts';
import { type HttpServer, startHttpServer } from '../../http/server.ts';
import { createStatusReadModel } from '../../http/status/readModel.ts';
import { pollPlan } from '../../polling/pollPlan.ts';
import type { RedisConnection } from '../../redis/connection.ts';
import { prune } from '../../retention/prune.ts';
import { connectRedis } from '../../runtime/connectRedis.ts';
import { openUpstream } from '../../runtime/upstream.ts';
import { configuredDelivery, startWebhookDelivery } from '../../webhooks/delivery/runtime.ts';
import { deploymentPrefix, readDeploymentTag } from '../../worker/deployment.ts';
import { createEngineRunner } from '../../worker/engineRunner.ts';
import { logFinishedRun } from '../../worker/finishedRunLog.ts';
import { wireMetricSources } from '../../worker/metricsSources.ts';
import { openWorkerPools } from '../../worker/pools.ts';
import { wireServiceMetricSources } from '../../worker/serviceMetricSources.ts';
import { startWorker } from '../../worker/worker.ts';
import type { CliContext } from '../context.ts';
import { queuePrefixOf } from '../queuePrefix.ts';
import { SCOPE_VARIABLE } from '../scopes.ts';
import { UsageError } from '../usageError.ts';

/** Options of `worker`. */
export interface WorkerCommandOptions {
  queuePrefix?: string;
  concurrency?: string;
}

/** How long a starting worker waits for Redis before it gives up (exit 1). */
export const REDIS_START_WAIT_MS = 2_000;

/** `--concurrency`: a whole number from 1 to 1000 (as WORKER_CONCURRENCY); bad input is a UsageError. */
export function parseConcurrencyOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const value = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > 1000) {
    throw new UsageError(`--concurrency must be a whole number from 1 to 1000, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/** Listens on HTTP_PORT; a port in use (or refused) becomes one line naming it. */
async function listenOnHttpPort(
  handler: Parameters<typeof startHttpServer>[0],
  port: number,
): Promise<HttpServer> {
  try {
    return await startHttpServer(handler, port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new Error(
        `HTTP_PORT ${port} is already in use; stop what listens there or set HTTP_PORT to a free port (0: any)`,
      );
    }
    throw new Error(`cannot listen on HTTP_PORT ${port}: ${(error as Error).message}`);
  }
}

/**
 * Runs the worker until SIGTERM/SIGINT: registers the schedules, processes jobs, serves HTTP_PORT,
 * and on a signal stops taking jobs, finishes or releases running ones, closes Redis and Postgres
 * and exits 0 within config.worker.shutdownTimeoutMs. Start-up fails fast, before any work: bad
 * options (exit 2), a port in use, or Redis unreachable for REDIS_START_WAIT_MS (exit 1).
 */
export async function workerAction(context: CliContext, options: WorkerCommandOptions): Promise<void> {
  const baseConfig = context.config();
  const concurrency = parseConcurrencyOption(options.concurrency) ?? baseConfig.worker.concurrency;
  const prefix = queuePrefixOf(options.queuePrefix, baseConfig);
  const logger = context.logger().child({ command: 'worker' });
  collectProcessMetrics();
  // Until the worker is wired, /readyz answers 503 and /healthz 200.
  let app = createHttpApp({ readiness: { startup: () => false } });
  const http = await listenOnHttpPort({ fetch: (request) => app.fetch(request) }, baseConfig.httpPort);
  writePortFile(baseConfig.httpPortFile, http.port);
  let probe: RedisConnection;
  try {
    probe = await connectRedis(baseConfig.redis, {
      waitMs: REDIS_START_WAIT_MS,
      onError: (error) => logger.warn({ err: error.message }, 'Redis connection error'),
    });
  } catch (error) {
    await http.close();
    removePortFile(baseConfig.httpPortFile);
    throw error;
  }
  probe.disconnect();
  // The shared rate limit lives under the queue prefix, so --queue-prefix moves it too.
  let upstream: Awaited<ReturnType<typeof openUpstream>>;
  try {
    upstream = await openUpstream({ ...baseConfig, queuePrefix: prefix }, logger);
  } catch (error) {
    await http.close();
    removePortFile(baseConfig.httpPortFile);
    throw error;
  }
  // Sandbox mode fills in the simulator's suppliers, accounts and beginning.
  const config = {
    ...upstream.config,
    queuePrefix: prefix,
    worker: { ...baseConfig.worker, concurrency },
  };
  if (config.supplierIds.length === 0 && config.accountNumbers.length === 0) {
    logger.warn(
      `no scopes configured: no syncs are scheduled (set ${SCOPE_VARIABLE.supplier} and/or ${SCOPE_VARIABLE.account}); webhooks are still delivered`,
    );
  }
  // Signals are heard from here on: a SIGTERM while the worker starts (its schedules already run
  // their first syncs) waits for the start to finish and then stops it as usual, instead of
  // killing the process mid-write with Node's default handler.
  let pendingSignal: string | undefined;
  let onSignal = (signal: string) => {
    pendingSignal ??= signal;
  };
  process.once('SIGTERM', () => onSignal('SIGTERM'));
  process.once('SIGINT', () => onSignal('SIGINT'));
  // Separate pools: sync runs, webhooks and readiness cannot exhaust one another's connections.
  const pools = openWorkerPools(config.databaseUrl, config.worker.concurrency, logger, config.database);
  // This deployment's queues: under its database's identity, apart from any other deployment's
  // sharing the Redis database and prefix (deployment.ts).
  let deployment: string;
  try {
    deployment = await readDeploymentTag(pools.ops.pool);
  } catch (error) {
    await Promise.all([http.close(), pools.close(), upstream.close().catch(() => undefined)]);
    removePortFile(baseConfig.httpPortFile);
    throw new Error(
      `could not read the identity of the database (DATABASE_URL): ${(error as Error).message}`,
    );
  }
  const analytics = new AnalyticsRefresher(pools.analytics.pool, { logger });
  const runSync = createEngineRunner({
    pool: pools.sync.pool,
    client: upstream.client,
    config,
    logger,
    now: upstream.now,
    analytics,
    onResult: (result, durationMs) => logFinishedRun(logger, result, durationMs),
  });
  const worker = await startWorker({
    config,
    logger,
    prefix: deploymentPrefix(prefix, deployment),
    sharedPrefix: prefix,
    runSync,
    prune: (shouldStop) => prune(pools.maintenance.pool, config.retention, { logger, shouldStop }),
    onBackfillWindowDone: (payload, outcome) =>
      markWindowFinished(
        pools.sync.pool,
        {
          backfillId: payload.backfillId,
          stream: payload.stream,
          scope: payload.scope,
          window: { from: new Date(payload.from), to: new Date(payload.to) },
        },
        outcome.recordsFetched,
      ),
  });
  const webhooks = await startWebhookDelivery({
    pool: pools.webhooks.pool,
    databaseUrl: config.databaseUrl,
    ...configuredDelivery(config.webhooks),
    onOutcome: recordWebhookOutcome,
    onError: (error) => logger.error({ err: error.message }, 'webhook delivery error'),
  });
  const queues = Object.values(worker.queues);
  wireMetricSources(queues, pools.ops.pool);
  const readiness = {
    postgres: () => postgresReady(pools.ops.pool),
    redis: () => redisReady(worker.redis, worker.redisConnections.allReady),
    schedules: () => schedulesReady(worker.missingSchedules),
  };
  wireServiceMetricSources({ config, plan: pollPlan(config), pool: pools.ops.pool, readiness });
  app = createHttpApp({
    readiness,
    queues,
    dashboard: config.dashboard,
    status: createStatusReadModel(pools.ops.pool, config),
  });
  logger.info(
    { httpPort: http.port, concurrency: config.worker.concurrency, sandbox: upstream.sandbox, deployment },
    'worker started',
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const budget = config.worker.shutdownTimeoutMs;
    logger.info({ signal, timeoutMs: budget }, 'shutting down: no new jobs, finishing running ones');
    // Whatever happens below, the process is gone within the budget.
    setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(0);
    }, budget).unref();
    const [{ released }] = await Promise.all([
      worker.close(Math.max(0, budget - 1500)),
      Promise.race([
        webhooks.close(),
        new Promise((resolve) => setTimeout(resolve, Math.max(0, budget - 1500))),
      ]),
    ]);
    await http.close();
    removePortFile(config.httpPortFile);
    // A refresh in progress is waited for within the budget, else rolled back with its connection.
    await Promise.race([analytics.close(), new Promise((resolve) => setTimeout(resolve, 1000))]);
    // Ending the pool waits for checked-out clients; a released job's transaction dies with the process.
    await Promise.race([pools.close(), new Promise((resolve) => setTimeout(resolve, 500))]);
    await upstream.close().catch(() => undefined);
    logger.info({ released }, 'worker stopped');
    process.exit(0);
  };
  onSignal = (signal) => void stop(signal);
  if (pendingSignal) void stop(pendingSignal);
  // Keep the action pending: the process lives until a signal.
  await new Promise(() => {});
}
