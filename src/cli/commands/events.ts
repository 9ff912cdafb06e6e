import type { Command } from 'commander';
import pg from 'pg';
import { loadConfig } from '../../config/loadConfig.ts';
import { createDatabase } from '../../db/client.ts';
import { tailEvents } from '../../events/tail.ts';
import { EVENT_TYPES } from '../../events/types.ts';

/** Registers `events tail [--type T]`: prints new events as JSON lines until interrupted. */
export function registerEventsCommand(program: Command): void {
  const events = program.command('events').description('derived events (the outbox)');
  events
    .command('tail')
    .description('print new events as JSON lines (LISTEN fulfillment_events, with a polling fallback)')
    .option('--type <type>', 'only this event type')
    .option('--poll-ms <ms>', 'polling fallback interval', (v) => Number(v), 2000)
    .action(async (opts: { type?: string; pollMs: number }) => {
      if (opts.type && !(EVENT_TYPES as readonly string[]).includes(opts.type)) {
        console.error(`Unknown event type "${opts.type}". Known types: ${EVENT_TYPES.join(', ')}.`);
        process.exitCode = 2;
        return;
      }
      const config = loadConfig(process.env);
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
          onEvent: (event) => process.stdout.write(`${JSON.stringify(event)}\n`),
          onListenError: (error) => console.error(`LISTEN unavailable, polling instead: ${error.message}`),
        });
      } finally {
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await database.close();
      }
    });
}
