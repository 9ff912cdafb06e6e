import { userInfo } from 'node:os';
import type { Command } from 'commander';
import type { Pool } from 'pg';
import { createDatabase } from '../../db/client.ts';
import type { CliContext } from '../context.ts';
import { migrateAction } from './migrate.ts';
import { syncOnceAction } from './sync.ts';

/** Rows per warehouse table and events per type: what the demo prints at the end. */
export async function readDemoSummary(
  pool: Pool,
): Promise<{ tables: [string, number][]; events: [string, number][] }> {
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
  const events = await pool.query<{ type: string; n: string }>(
    'SELECT type, count(*) AS n FROM sync.events GROUP BY type ORDER BY type',
  );
  return { tables, events: events.rows.map((r) => [r.type, Number(r.n)]) };
}

/** `demo`: migrate, one sandbox `sync --once`, then a summary. Answers the exit code. */
export async function demoAction(context: CliContext): Promise<number> {
  const config = context.config();
  const out = { log: context.print, error: context.printError };
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
  context.print('1/3 migrate');
  const migrated = await migrateAction(config.databaseUrl, out);
  if (migrated !== 0) return migrated;
  context.print('2/3 sync --once against the in-process simulator (sandbox mode)');
  const synced = await syncOnceAction({ once: true }, { env: context.env, out, logger: context.logger() });
  context.print('3/3 summary');
  const database = createDatabase(config.databaseUrl, { max: 1, applicationName: 'fulfillment-sync demo' });
  try {
    const { tables, events } = await readDemoSummary(database.pool);
    context.print('rows per table:');
    for (const [name, n] of tables) context.print(`  fulfillment.${name.padEnd(28)} ${n}`);
    context.print('events per type:');
    if (events.length === 0)
      context.print('  (none yet: a first load records state without events; run sync --once again later)');
    for (const [type, n] of events) context.print(`  ${type.padEnd(40)} ${n}`);
    context.print(
      'next: `fulfillment-sync worker` keeps syncing on schedule; `fulfillment-sync status` shows where each stream is.',
    );
  } finally {
    await database.close();
  }
  return synced;
}

/** Registers `demo` (what `npm run demo` runs). */
export function registerDemoCommand(program: Command, context: CliContext): void {
  program
    .command('demo')
    .description('migrate, sync once against the built-in simulator, and print what landed')
    .action(async () => {
      process.exitCode = await demoAction(context);
    });
}
