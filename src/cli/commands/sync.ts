import type { Command } from 'commander';
import pino from 'pino';
import {
  markAnalyticsStale,
  type RefreshOutcome,
  refreshStaleAnalytics,
  runChangedRows,
} from '../../analytics/refresh.ts';
import { loadConfig } from '../../config/loadConfig.ts';
import { createDatabase } from '../../db/client.ts';
import { createEventSink } from '../../events/sink.ts';
import { recordEventsWritten } from '../../http/metricsHooks.ts';
import { createLogger, type Logger } from '../../log/logger.ts';
import { openUpstream } from '../../runtime/upstream.ts';
import { allStreams, type RegisteredStream, streamByName } from '../../streams/index.ts';
import { runStream } from '../../sync/runStream.ts';
import type { StreamRunResult } from '../../sync/types.ts';
import type { CliContext } from '../context.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../exitCodes.ts';
import { noScopesLine, SCOPE_VARIABLE } from '../scopes.ts';

interface Out {
  log: (line: string) => void;
  error: (line: string) => void;
}

export interface SyncOnceOptions {
  once?: boolean;
  stream?: string;
  scope?: string;
}

/** One summary line per stream: its counts over every scope it ran for. */
export function describeStream(name: string, results: readonly StreamRunResult[]): string {
  const sum = (k: 'fetched' | 'inserted' | 'updated' | 'unchanged' | 'rejected' | 'events' | 'apiCalls') =>
    results.reduce((n, r) => n + r[k], 0);
  const failed = results.filter((r) => r.status === 'failed');
  const status =
    failed.length > 0 ? `FAILED: ${failed.map((r) => `${r.scope.id}: ${r.error}`).join('; ')}` : 'ok';
  return `${name.padEnd(18)} scopes ${results.length}  fetched ${sum('fetched')}  inserted ${sum('inserted')}  updated ${sum('updated')}  unchanged ${sum('unchanged')}  rejected ${sum('rejected')}  events ${sum('events')}  api calls ${sum('apiCalls')}  ${status}`;
}

/** What the analytics refresh at the end of the run did, in one line. */
export function describeRefresh(outcomes: readonly RefreshOutcome[]): string {
  const refreshed = outcomes.filter((o) => o.status === 'refreshed');
  const failed = outcomes.filter((o) => o.status === 'failed');
  const seconds = (refreshed.reduce((n, o) => n + o.durationMs, 0) / 1000).toFixed(1);
  const problems = failed.map((o) => `${o.relation}: ${o.error}`).join('; ');
  return `${'analytics'.padEnd(18)} refreshed ${refreshed.length} views in ${seconds} s${failed.length > 0 ? `  FAILED: ${problems}` : ''}`;
}

/**
 * The run's upstream calls in total, order details (one per order) apart, and per supplier and
 * account pair: what the upstream's unknown quota is spent on.
 */
export function describeCalls(
  calls: { all: number; orderDetails: number },
  suppliers: number,
  accounts: number,
): string {
  const pairs = Math.max(suppliers, accounts, 1);
  const others = calls.all - calls.orderDetails;
  return `upstream calls     ${calls.all} in total: ${calls.orderDetails} order details, ${others} others (${Math.round((others / pairs) * 10) / 10} per supplier+account pair)`;
}

/** `sync --once`: every stream (or one) once, in-process (Redis only for the shared rate limit). Returns the exit code. */
export async function syncOnceAction(
  options: SyncOnceOptions,
  deps: { env?: NodeJS.ProcessEnv; out?: Out; logger?: Logger } = {},
): Promise<number> {
  const out = deps.out ?? console;
  // One line, worded as every other usage error (run.ts), exit code 2.
  const usage = (line: string) => {
    out.error(`error: ${line}`);
    return EXIT_USAGE;
  };
  if (!options.once) return usage('sync needs --once (continuous syncing is the `worker` command).');
  let streams: RegisteredStream[] = allStreams();
  if (options.stream !== undefined) {
    const stream = streamByName(options.stream);
    if (!stream) {
      const valid = allStreams().map((s) => s.name);
      return usage(`unknown stream "${options.stream}"; valid streams: ${valid.join(', ')}`);
    }
    streams = [stream];
  }
  const config = loadConfig(deps.env ?? process.env);
  const logger =
    deps.logger ??
    createLogger({ level: config.logLevel, destination: pino.destination(2), base: { command: 'sync' } });
  const upstream = await openUpstream(config, logger);
  const scopesOf = (s: RegisteredStream) =>
    s.scopeKind === 'supplier' ? upstream.supplierIds : upstream.accountNumbers;
  if (streams.every((s) => scopesOf(s).length === 0)) {
    // A real API with no scopes would otherwise "succeed" having read nothing.
    await upstream.close();
    return usage(noScopesLine(streams.map((s) => s.scopeKind)));
  }
  const database = createDatabase(config.databaseUrl, { max: 4, applicationName: 'fulfillment-sync sync' });
  try {
    if (options.scope !== undefined && !streams.some((s) => scopesOf(s).includes(options.scope as string))) {
      const known = [...new Set(streams.flatMap(scopesOf))];
      return usage(`unknown scope "${options.scope}"; configured scopes: ${known.join(', ') || '(none)'}`);
    }
    const eventSink = createEventSink({
      timezone: config.timezone,
      ambiguousTime: config.ambiguousTime,
      thresholds: config.events,
      onWritten: recordEventsWritten,
    });
    let failed = false;
    const calls = { all: 0, orderDetails: 0 };
    for (const stream of streams) {
      const scopes = scopesOf(stream).filter((id) => options.scope === undefined || id === options.scope);
      const results: StreamRunResult[] = [];
      for (const id of scopes) {
        const scope = { kind: stream.scopeKind, id };
        const result = await runStream({
          pool: database.pool,
          client: upstream.client,
          config: upstream.config,
          logger,
          stream,
          scope,
          eventSink,
        });
        if (runChangedRows(result)) await markAnalyticsStale(database.pool, result.stream);
        results.push(result);
      }
      failed ||= results.some((r) => r.status === 'failed');
      const streamCalls = results.reduce((n, r) => n + r.apiCalls, 0);
      calls.all += streamCalls;
      if (stream.name === 'orders') calls.orderDetails += streamCalls;
      out.log(
        scopes.length === 0
          ? `${stream.name.padEnd(18)} skipped: no scopes (set ${SCOPE_VARIABLE[stream.scopeKind]})`
          : describeStream(stream.name, results),
      );
    }
    out.log(describeCalls(calls, upstream.supplierIds.length, upstream.accountNumbers.length));
    out.log(describeRefresh(await refreshStaleAnalytics(database.pool, { minIntervalMs: 0, logger })));
    return failed ? EXIT_FAILURE : EXIT_OK;
  } finally {
    await database.close();
    await upstream.close();
  }
}

/** Registers `sync --once [--stream S] [--scope X]`. */
export function registerSyncCommand(program: Command, context: CliContext): void {
  program
    .command('sync')
    .description('run every stream (or one) once, in-process, and print a summary per stream')
    .option('--once', 'run once and exit')
    .option('--stream <name>', 'only this stream')
    .option('--scope <id>', 'only this supplier id or account number')
    .action(async (options: SyncOnceOptions) => {
      process.exitCode = await syncOnceAction(options, {
        env: context.env,
        out: { log: context.print, error: context.printError },
        logger: context.logger(),
      });
    });
}
