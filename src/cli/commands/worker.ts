import type { Command } from 'commander';
import type { WorkerCommandOptions } from '../actions/worker.ts';
import type { CliContext } from '../context.ts';

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
    .action(async (options: WorkerCommandOptions) => {
      const { workerAction } = await import('../actions/worker.ts');
      await workerAction(context, options);
    });
}
