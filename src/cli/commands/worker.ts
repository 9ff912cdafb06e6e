import type { Command } from 'commander';
import { markWindowFinished } from '../../backfill/windowsStore.ts';
import { createDatabase } from '../../db/client.ts';
import { createHttpApp } from '../../http/app.ts';
import { recordWebhookOutcome } from '../../http/metricsHooks.ts';
import { postgresReady, redisReady, schedulesReady } from '../../http/readiness.ts';
import { startHttpServer } from '../../http/server.ts';
import { openUpstream } from '../../runtime/upstream.ts';
import { startWebhookDelivery } from '../../webhooks/runtime.ts';
import { createEngineRunner } from '../../worker/engineRunner.ts';
import { logFinishedRun } from '../../worker/finishedRunLog.ts';
import { wireMetricSources } from '../../worker/metricsSources.ts';
import { DEFAULT_QUEUE_PREFIX } from '../../worker/queues.ts';
import { wireServiceMetricSources } from '../../worker/serviceMetricSources.ts';
import { startWorker } from '../../worker/worker.ts';
import type { CliContext } from '../context.ts';
import { SCOPE_VARIABLE } from '../scopes.ts';

/** Options of `worker`. */
export interface WorkerCommandOptions {
  queuePrefix?: string;
  concurrency?: string;
}

/**
 * Runs the worker until SIGTERM/SIGINT: registers the schedules, processes jobs, serves HTTP_PORT,
 * and on a signal stops taking jobs, finishes or releases running ones, closes Redis and Postgres
 * and exits 0 within config.worker.shutdownTimeoutMs.
 */
export async function workerAction(context: CliContext, options: WorkerCommandOptions): Promise<void> {
  const baseConfig = context.config();
  const logger = context.logger().child({ command: 'worker' });
  const upstream = await openUpstream(baseConfig, logger);
  // Sandbox mode fills in the simulator's suppliers, accounts and beginning.
  const config = {
    ...upstream.config,
    worker: {
      ...baseConfig.worker,
      concurrency: options.concurrency ? Number(options.concurrency) : baseConfig.worker.concurrency,
    },
  };
  if (config.supplierIds.length === 0 && config.accountNumbers.length === 0) {
    logger.warn(
      `no scopes configured: no syncs are scheduled (set ${SCOPE_VARIABLE.supplier} and/or ${SCOPE_VARIABLE.account}); webhooks are still delivered`,
    );
  }
  const database = createDatabase(config.databaseUrl, {
    max: config.worker.concurrency + 2,
    applicationName: 'fulfillment-sync worker',
    onIdleError: (error) => logger.warn({ err: error.message }, 'idle Postgres connection failed'),
  });
  const runSync = createEngineRunner({
    pool: database.pool,
    client: upstream.client,
    config,
    logger,
    onResult: (result, durationMs) => logFinishedRun(logger, result, durationMs),
  });
  const worker = await startWorker({
    config,
    logger,
    prefix: options.queuePrefix ?? context.env.FULFILLMENT_QUEUE_PREFIX ?? DEFAULT_QUEUE_PREFIX,
    runSync,
    fetchOrderDetails: async ({ accountNumber, orderNumber }) => {
      await runSync({
        stream: 'orders',
        scope: accountNumber,
        mode: 'incremental',
        orderNumbers: [orderNumber],
      });
    },
    onBackfillWindowDone: (payload, outcome) =>
      markWindowFinished(
        database.pool,
        {
          backfillId: payload.backfillId,
          stream: payload.stream,
          scope: payload.scope,
          window: { from: new Date(payload.from), to: new Date(payload.to) },
        },
        outcome.recordsFetched,
      ),
  });
  const prefix = options.queuePrefix ?? context.env.FULFILLMENT_QUEUE_PREFIX ?? DEFAULT_QUEUE_PREFIX;
  const webhookRedis = [
    worker.redisConnections.workerConnection(),
    worker.redisConnections.workerConnection(),
  ] as const;
  const webhooks = await startWebhookDelivery({
    pool: database.pool,
    databaseUrl: config.databaseUrl,
    producerConnection: webhookRedis[0],
    workerConnection: webhookRedis[1],
    prefix,
    policy: config.webhooks,
    onOutcome: recordWebhookOutcome,
    onError: (error) => logger.error({ err: error.message }, 'webhook delivery error'),
    onRedisError: (error) => worker.redisConnections.reportError(error, 'webhooks'),
    onSweep: ({ reenqueued }) => {
      if (reenqueued > 0) {
        logger.warn({ reenqueued }, 're-enqueued due webhook deliveries whose job was missing from Redis');
      }
    },
  });
  // Deliveries whose wake-up job a Redis restart lost are due again: find them at once.
  worker.redisConnections.onReconnect(() => void webhooks.sweep());
  const queues = [...Object.values(worker.queues), webhooks.queue];
  wireMetricSources(queues, database.pool);
  const readiness = {
    postgres: () => postgresReady(database.pool),
    redis: () => redisReady(worker.redis, worker.redisConnections.allReady),
    schedules: () => schedulesReady(worker.missingSchedules),
  };
  wireServiceMetricSources({ config, pool: database.pool, readiness });
  const app = createHttpApp({
    readiness,
    queues,
    dashboard: config.dashboard,
  });
  const http = await startHttpServer(app, config.httpPort);
  logger.info(
    { httpPort: http.port, concurrency: config.worker.concurrency, sandbox: upstream.sandbox },
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
    for (const connection of webhookRedis) connection.disconnect();
    await http.close();
    // Ending the pool waits for checked-out clients; a released job's transaction dies with the process.
    await Promise.race([database.close(), new Promise((resolve) => setTimeout(resolve, 500))]);
    await upstream.close().catch(() => undefined);
    logger.info({ released }, 'worker stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  // Keep the action pending: the process lives until a signal.
  await new Promise(() => {});
}

/** Registers `worker`. */
export function registerWorkerCommand(program: Command, context: CliContext): void {
  program
    .command('worker')
    .description('process jobs, register the schedules and serve health, metrics and the dashboard')
    .option(
      '--queue-prefix <prefix>',
      'Redis key prefix of the queues (default FULFILLMENT_QUEUE_PREFIX or fulfillment-sync)',
    )
    .option('--concurrency <n>', 'jobs processed at once by this worker (default WORKER_CONCURRENCY, 4)')
    .action((options: WorkerCommandOptions) => workerAction(context, options));
}
