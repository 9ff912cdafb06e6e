import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

/** Registers `events types|example|get|tail`. */
export function registerEventsCommand(program: Command, context: CliContext): void {
  const events = program.command('events').description('derived events (the outbox)');
  events
    .command('types')
    .description('list the event types with the path of their JSON Schema')
    .option('--json', 'a JSON array, for scripts')
    .action(async (opts: { json?: boolean }) => {
      const { eventsTypesAction } = await import('../actions/events.ts');
      eventsTypesAction(context, opts);
    });
  events
    .command('example <type>')
    .description('print an example body of an event type, as `webhooks test --type` sends it')
    .action(async (type: string) => {
      const { eventsExampleAction } = await import('../actions/events.ts');
      eventsExampleAction(context, type);
    });
  events
    .command('get <id>')
    .description('print a stored event as its webhook body carries it (JSON; exit 1 when there is none)')
    .option('--pretty', 'indented JSON')
    .action(async (id: string, opts: { pretty?: boolean }) => {
      const { eventsGetAction } = await import('../actions/events.ts');
      await eventsGetAction(context, id, opts);
    });
  events
    .command('tail')
    .description('print new events as JSON lines (LISTEN fulfillment_events, with a polling fallback)')
    .option('--type <type>', 'only this event type')
    .option('--poll-ms <ms>', 'polling fallback interval', (v) => Number(v), 2000)
    .action(async (opts: { type?: string; pollMs: number }) => {
      const { eventsTailAction } = await import('../actions/events.ts');
      await eventsTailAction(context, opts);
    });
}
