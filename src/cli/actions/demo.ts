import { userInfo } from 'node:os';
import type { Pool } from 'pg';
import pino from 'pino';
import type { Config } from '../../config/types.ts';
import { createDatabase } from '../../db/client.ts';
import { createLogger, type Logger } from '../../log/logger.ts';
import { cliCommand } from '../../runtime/invocation.ts';
import type { CliContext } from '../context.ts';
import { migrateAction } from './migrate.ts';
import { type SyncSummary, syncOnceAction } from './sync.ts';

/** How the stored events stand: stored, held back (first load, backfill), waiting for delivery; their time span. */
export interface DemoEvents {
  byType: [string, number][];
  total: number;
  /** From a first load or a backfill: stored, not delivered unless replayed. */
  suppressed: number;
  /** Deliverable but not yet handed to the webhook endpoints (a worker does that). */
  pending: number;
  firstOccurredAt: Date | null;
  lastOccurredAt: Date | null;
}

/** Rows per warehouse table and the events: what the demo prints at the end. */
export async function readDemoSummary(
  pool: Pool,
): Promise<{ tables: [string, number][]; events: DemoEvents }> {
  const tableNames = await pool.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'fulfillment' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const tables: [string, number][] = [];
  for (const { table_name } of tableNames.rows) {
    const res = await pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM fulfillment."${table_name.replace(/"/g, '""')}"`,
    );
    tables.push([table_name, Number(res.rows[0]?.n ?? 0)]);
  }
  const byType = await pool.query<{ type: string; n: string }>(
    'SELECT type, count(*) AS n FROM sync.events GROUP BY type ORDER BY type',
  );
  const totals = await pool.query<{
    total: string;
    suppressed: string;
    pending: string;
    first: Date | null;
    last: Date | null;
  }>(
    `SELECT count(*) AS total, count(*) FILTER (WHERE suppressed) AS suppressed,
            count(*) FILTER (WHERE NOT suppressed AND dispatched_at IS NULL) AS pending,
            min(occurred_at) AS first, max(occurred_at) AS last
       FROM sync.events`,
  );
  const t = totals.rows[0];
  return {
    tables,
    events: {
      byType: byType.rows.map((r) => [r.type, Number(r.n)]),
      total: Number(t?.total ?? 0),
      suppressed: Number(t?.suppressed ?? 0),
      pending: Number(t?.pending ?? 0),
      firstOccurredAt: t?.first ?? null,
      lastOccurredAt: t?.last ?? null,
    },
  };
}

/** What the demo says about its events: how many were stored, that they were not delivered, and how to. */
export function describeDemoEvents(events: DemoEvents): string[] {
  if (events.total === 0) return ['events: none stored (nothing changed in the simulated world).'];
  const lines = [`events: ${events.total} stored in sync.events.`];
  if (events.suppressed > 0) {
    lines.push(
      `  ${events.suppressed} of them are from this first load: stored but not delivered (a new install never fires a webhook per existing record; FULFILLMENT_DELIVER_INITIAL_EVENTS=true changes that).`,
    );
  }
  if (events.pending > 0) {
    lines.push(
      `  ${events.pending} are waiting for delivery: a running worker sends them to the webhook endpoints.`,
    );
  }
  lines.push(
    'to deliver them: add an endpoint, replay them to it, and run the worker, which sends them:',
    ...deliveryCommands(events).map((command) => `  ${command}`),
    '  (changes the worker finds from now on are delivered without a replay)',
  );
  return lines;
}

/**
 * The demo's log: on stderr, never among the demo's own lines on stdout, and as readable text even
 * when stderr is not a terminal (`npm run demo > demo.txt 2>&1` reads as one text, not text with JSON
 * lines in it). The worker keeps JSON lines for log collectors; the demo is read by a person.
 */
function demoLogger(config: Config): Logger {
  return createLogger({ level: config.logLevel, destination: pino.destination(2), pretty: true });
}

/** The commands that deliver the stored events: add an endpoint, replay them, run the worker. */
function deliveryCommands(events: DemoEvents): string[] {
  const from = events.firstOccurredAt?.toISOString();
  // replay --to is exclusive: one millisecond past the last event.
  const to = events.lastOccurredAt ? new Date(events.lastOccurredAt.getTime() + 1).toISOString() : undefined;
  return [
    cliCommand('webhooks add https://your.endpoint/path'),
    cliCommand(`webhooks replay --from ${from} --to ${to}`),
    cliCommand('worker'),
  ];
}

/** `demo`: migrate, one sandbox `sync --once`, then a summary (text, or one JSON object). Answers the exit code. */
export async function demoAction(context: CliContext, options: { json?: boolean } = {}): Promise<number> {
  const config = context.config();
  const json = options.json === true;
  // With --json, what the steps print is collected into the one object instead.
  const collected: string[] = [];
  const print = json ? (line: string) => collected.push(line) : context.print;
  const out = { log: print, error: context.printError };
  if (config.api.baseUrl) {
    context.printError(
      'demo runs in sandbox mode only: unset FULFILLMENT_API_URL (and use a scratch DATABASE_URL).',
    );
    return 2;
  }
  // pg takes a URL without a user name from $USER, which minimal shells and containers leave unset;
  // Postgres' own clients fall back to the OS user, so the default URL should work the same way.
  if (!new URL(config.databaseUrl).username && !process.env.PGUSER && !process.env.USER) {
    process.env.PGUSER = userInfo().username;
  }
  print('1/3 migrate');
  const migrated = await migrateAction(config.databaseUrl, out);
  if (migrated !== 0) return migrated;
  const migration = collected.at(-1);
  print('2/3 sync --once against the in-process simulator (sandbox mode)');
  const synced = await syncOnceAction(
    { once: true, json },
    { env: context.env, out, logger: demoLogger(config) },
  );
  const sync = json ? (JSON.parse(collected.at(-1) ?? '{}') as SyncSummary) : undefined;
  print('3/3 summary');
  const database = createDatabase(config.databaseUrl, {
    max: 1,
    applicationName: 'fulfillment-sync demo',
    settings: config.database,
  });
  try {
    const { tables, events } = await readDemoSummary(database.pool);
    if (json) {
      context.print(
        JSON.stringify({
          migrate: migration,
          sync,
          tables: tables.map(([table, rows]) => ({ table: `fulfillment.${table}`, rows })),
          events: { ...events, byType: events.byType.map(([type, count]) => ({ type, count })) },
          deliver: events.total > 0 ? deliveryCommands(events) : [],
        }),
      );
      return synced;
    }
    context.print('rows per table:');
    for (const [name, n] of tables) context.print(`  fulfillment.${name.padEnd(28)} ${n}`);
    context.print('events per type:');
    for (const [type, n] of events.byType) context.print(`  ${type.padEnd(40)} ${n}`);
    for (const line of describeDemoEvents(events)) context.print(line);
    context.print(
      `next: \`${cliCommand('worker')}\` keeps syncing on schedule; \`${cliCommand('status')}\` shows where each stream is.`,
    );
  } finally {
    await database.close();
  }
  return synced;
}
