import type { Command } from 'commander';
import pg from 'pg';
import { createDatabase } from '../../db/client.ts';
import { tailEvents } from '../../events/tail.ts';
import { EVENT_TYPES } from '../../events/types.ts';
import type { CliContext } from '../context.ts';
import { UsageError } from '../usageError.ts';

/** Registers `events tail [--type T]`: prints new events as JSON lines until interrupted. */
export function registerEventsCommand(program: Command, context: CliContext): void {
  const events = program.command('events').description('derived events (the outbox)');
  events
    .command('tail')
    .description('print new events as JSON lines (LISTEN fulfillment_events, with a polling fallback)')
    .option('--type <type>', 'only this event type')
    .option('--poll-ms <ms>', 'polling fallback interval', (v) => Number(v), 2000)
    .action(async (opts: { type?: string; pollMs: number }) => {
      if (opts.type && !(EVENT_TYPES as readonly string[]).includes(opts.type)) {
        throw new UsageError(`Unknown event type "${opts.type}". Known types: ${EVENT_TYPES.join(', ')}.`);
      }
      const config = context.config();
      const database = createDatabase(config.databaseUrl, {
        max: 2,
        applicationName: 'fulfillment-sync events tail',
      });
      const stop = new AbortController();
      const onSignal = () => stop.abort();
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      try {
        await tailEvents({
          pool: database.pool,
          connectListener: async () => {
            const client = new pg.Client({ connectionString: config.databaseUrl });
            await client.connect();
            return client;
          },
          type: opts.type,
          pollMs: opts.pollMs,
          signal: stop.signal,
          onEvent: (event) => context.print(JSON.stringify(event)),
          onListenError: (error) =>
            context.printError(`LISTEN unavailable, polling instead: ${error.message}`),
        });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await database.close();
      }
    });
}
