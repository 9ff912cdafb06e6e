import path from 'node:path';
import pg from 'pg';
import { exampleMessage, isTestMessageType } from '../../catalog/eventExamples.ts';
import { eventSchemaPath, subjectKindOf } from '../../catalog/eventSchemas.ts';
import { createDatabase } from '../../db/client.ts';
import { readEvent } from '../../events/readEvent.ts';
import { tailEvents } from '../../events/tail.ts';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../../events/types.ts';
import { PACKAGE_ROOT } from '../../runtime/packageRoot.ts';
import type { CliContext } from '../context.ts';
import { UsageError } from '../usageError.ts';

/** One line of `events types`: the type, what its subject is, and where its JSON Schema is. */
export interface EventTypeEntry {
  type: string;
  subjectKind: string;
  /** Relative to the package root (the schemas ship in the npm package). */
  schema: string;
  /** The same file where this installation has it. */
  file: string;
  /** Only `webhooks test` sends it (the ping); never stored. */
  testOnly: boolean;
}

/** Every event type with its schema path, then the test ping. */
export function eventTypeEntries(): EventTypeEntry[] {
  return [
    ...EVENT_TYPES.map((type) => ({
      type,
      subjectKind: subjectKindOf(type),
      schema: eventSchemaPath(type),
      file: path.join(PACKAGE_ROOT, eventSchemaPath(type)),
      testOnly: false,
    })),
    {
      type: TEST_EVENT_TYPE,
      subjectKind: 'endpoint',
      schema: eventSchemaPath(TEST_EVENT_TYPE),
      file: path.join(PACKAGE_ROOT, eventSchemaPath(TEST_EVENT_TYPE)),
      testOnly: true,
    },
  ];
}

/** `events types [--json]`. */
export function eventsTypesAction(context: CliContext, opts: { json?: boolean }): void {
  const entries = eventTypeEntries();
  if (opts.json) {
    context.print(JSON.stringify(entries));
    return;
  }
  const width = Math.max(...entries.map((e) => e.type.length));
  for (const entry of entries) {
    const note = entry.testOnly ? '  (webhooks test ping only; never stored)' : '';
    context.print(`${entry.type.padEnd(width)}  ${entry.schema}${note}`);
  }
}

/** `events example <type>`: the body `webhooks test --type` sends. */
export function eventsExampleAction(context: CliContext, type: string): void {
  if (!isTestMessageType(type)) {
    throw new UsageError(
      `Unknown event type "${type}". Known types: ${EVENT_TYPES.join(', ')}, ${TEST_EVENT_TYPE}.`,
    );
  }
  const id = `evt_${'0'.repeat(32)}`;
  context.print(JSON.stringify(exampleMessage(type, { id, at: new Date() }), null, 2));
}

/**
 * `events get <id> [--pretty]`: the stored event as its webhook body carries it (JSON on one line,
 * or indented); exit 1 with one line when there is none.
 */
export async function eventsGetAction(
  context: CliContext,
  id: string,
  opts: { pretty?: boolean },
): Promise<void> {
  const database = createDatabase(context.config().databaseUrl, {
    max: 1,
    applicationName: 'fulfillment-sync events get',
  });
  try {
    const event = await readEvent(database.pool, id);
    if (!event)
      throw new Error(`No event ${id} in sync.events (see \`events tail\` or \`webhooks attempts\`).`);
    context.print(opts.pretty ? JSON.stringify(event, null, 2) : JSON.stringify(event));
  } finally {
    await database.close();
  }
}

/** `events tail [--type T]`: new events as JSON lines until SIGINT or SIGTERM. */
export async function eventsTailAction(
  context: CliContext,
  opts: { type?: string; pollMs: number },
): Promise<void> {
  if (opts.type && !(EVENT_TYPES as readonly string[]).includes(opts.type)) {
    throw new UsageError(`Unknown event type "${opts.type}". Known types: ${EVENT_TYPES.join(', ')}.`);
  }
  const config = context.config();
  const database = createDatabase(config.databaseUrl, {
    max: 2,
    applicationName: 'fulfillment-sync events tail',
    settings: config.database,
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
      onListenError: (error) => context.printError(`LISTEN unavailable, polling instead: ${error.message}`),
    });
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await database.close();
  }
}
