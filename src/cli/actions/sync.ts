import pino from 'pino';
import { type RefreshOutcome, refreshAllAnalytics } from '../../analytics/refresh.ts';
import { loadConfig } from '../../config/loadConfig.ts';
import { createDatabase } from '../../db/client.ts';
import { createEventSink } from '../../events/sink.ts';
import { recordEventsWritten } from '../../http/metricsHooks.ts';
import { createLogger, type Logger } from '../../log/logger.ts';
import { openUpstream } from '../../runtime/upstream.ts';
import { allStreams, type RegisteredStream, streamByName } from '../../streams/index.ts';
import { runStream } from '../../sync/runStream.ts';
import type { StreamRunResult } from '../../sync/types.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from '../exitCodes.ts';
import { createFetchProgressDisplay, type FetchProgressOptions } from '../fetchProgress.ts';
import { noScopesLine, SCOPE_VARIABLE } from '../scopes.ts';

interface Out {
  log: (line: string) => void;
  error: (line: string) => void;
}

export interface SyncOnceOptions {
  once?: boolean;
  stream?: string;
  scope?: string;
  /** One JSON object on stdout instead of the summary lines. */
  json?: boolean;
}

/** A stream's line of the summary, as `sync --once --json` prints it. */
export interface StreamSummary {
  stream: string;
  /** The scopes it ran for; none: it was skipped, `skipped` says why. */
  scopes: string[];
  status: 'ok' | 'failed' | 'skipped';
  skipped?: string;
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  events: number;
  apiCalls: number;
  /** The failed scopes and their errors. */
  failures: { scope: string; error: string }[];
}

/** What `sync --once --json` prints: a summary per stream and the run's upstream calls. */
export interface SyncSummary {
  streams: StreamSummary[];
  upstreamCalls: { total: number; orderDetails: number; others: number; perSupplierAccountPair: number };
  /** The analytics refresh at the end of the run, per relation. */
  analytics: RefreshOutcome[];
}

const COUNTS = ['fetched', 'inserted', 'updated', 'unchanged', 'rejected', 'events', 'apiCalls'] as const;

/** A stream's summary over every scope it ran for. */
export function summarizeStream(name: string, results: readonly StreamRunResult[]): StreamSummary {
  const failures = results
    .filter((r) => r.status === 'failed')
    .map((r) => ({ scope: r.scope.id, error: r.error ?? 'failed' }));
  const summary: StreamSummary = {
    stream: name,
    scopes: results.map((r) => r.scope.id),
    status: failures.length > 0 ? 'failed' : 'ok',
    fetched: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    events: 0,
    apiCalls: 0,
    failures,
  };
  for (const key of COUNTS) summary[key] = results.reduce((n, r) => n + r[key], 0);
  return summary;
}

/** The run's upstream calls, order details apart, per supplier and account pair. */
export function summarizeCalls(
  calls: { all: number; orderDetails: number },
  suppliers: number,
  accounts: number,
): SyncSummary['upstreamCalls'] {
  const pairs = Math.max(suppliers, accounts, 1);
  const others = calls.all - calls.orderDetails;
  return {
    total: calls.all,
    orderDetails: calls.orderDetails,
    others,
    perSupplierAccountPair: Math.round((others / pairs) * 10) / 10,
  };
}

/** One summary line per stream: its counts over every scope it ran for. */
export function describeStream(name: string, results: readonly StreamRunResult[]): string {
  const s = summarizeStream(name, results);
  const status =
    s.failures.length > 0 ? `FAILED: ${s.failures.map((f) => `${f.scope}: ${f.error}`).join('; ')}` : 'ok';
  return `${name.padEnd(18)} scopes ${results.length}  fetched ${s.fetched}  inserted ${s.inserted}  updated ${s.updated}  unchanged ${s.unchanged}  rejected ${s.rejected}  events ${s.events}  api calls ${s.apiCalls}  ${status}`;
}

/** What the analytics refresh at the end of the run did, in one line. */
export function describeRefresh(outcomes: readonly RefreshOutcome[]): string {
  const done = outcomes.filter((o) => o.status === 'refreshed');
  const rebuilt = done.filter((o) => o.rebuilt).length;
  const failed = outcomes.filter((o) => o.status === 'failed');
  const busy = outcomes.filter((o) => o.status === 'busy').length;
  const seconds = (done.reduce((n, o) => n + o.durationMs, 0) / 1000).toFixed(1);
  const changes = done.reduce((n, o) => n + o.changes, 0);
  const problems = failed.map((o) => `${o.relation}: ${o.error}`).join('; ');
  const how = `${changes} changes taken in${rebuilt > 0 ? `, ${rebuilt} rebuilt whole` : ''}${busy > 0 ? `, ${busy} left to the worker refreshing them` : ''}`;
  return `${'analytics'.padEnd(18)} refreshed ${done.length} tables in ${seconds} s (${how})${failed.length > 0 ? `  FAILED: ${problems}` : ''}`;
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
  const c = summarizeCalls(calls, suppliers, accounts);
  return `upstream calls     ${c.total} in total: ${c.orderDetails} order details, ${c.others} others (${c.perSupplierAccountPair} per supplier+account pair)`;
}

/** `sync --once`: every stream (or one) once, in-process (Redis only for the shared rate limit). Returns the exit code. */
export async function syncOnceAction(
  options: SyncOnceOptions,
  deps: {
    env?: NodeJS.ProcessEnv;
    out?: Out;
    logger?: Logger;
    /** Where order-detail progress goes (default stderr): a bar on a terminal, lines otherwise. */
    progress?: FetchProgressOptions;
  } = {},
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
  const database = createDatabase(config.databaseUrl, {
    max: 4,
    applicationName: 'fulfillment-sync sync',
    settings: config.database,
  });
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
    const summaries: StreamSummary[] = [];
    for (const stream of streams) {
      const scopes = scopesOf(stream).filter((id) => options.scope === undefined || id === options.scope);
      const results: StreamRunResult[] = [];
      for (const id of scopes) {
        const scope = { kind: stream.scopeKind, id };
        const progress = createFetchProgressDisplay(`${stream.name} ${id}`, deps.progress);
        try {
          const result = await runStream({
            pool: database.pool,
            client: upstream.client,
            config: upstream.config,
            logger,
            stream,
            scope,
            eventSink,
            now: await upstream.now(),
            onFetchProgress: progress.update,
          });
          results.push(result);
        } finally {
          progress.stop();
        }
      }
      failed ||= results.some((r) => r.status === 'failed');
      const streamCalls = results.reduce((n, r) => n + r.apiCalls, 0);
      calls.all += streamCalls;
      if (stream.name === 'orders') calls.orderDetails += streamCalls;
      const skipped = `no scopes (set ${SCOPE_VARIABLE[stream.scopeKind]})`;
      if (options.json) {
        summaries.push(
          scopes.length === 0
            ? { ...summarizeStream(stream.name, []), status: 'skipped', skipped }
            : summarizeStream(stream.name, results),
        );
      } else {
        out.log(
          scopes.length === 0
            ? `${stream.name.padEnd(18)} skipped: ${skipped}`
            : describeStream(stream.name, results),
        );
      }
    }
    const [suppliers, accounts] = [upstream.supplierIds.length, upstream.accountNumbers.length];
    // A table a worker is refreshing (perhaps a long rebuild) is left to it.
    const analytics = await refreshAllAnalytics(database.pool, { logger });
    if (options.json) {
      const summary: SyncSummary = {
        streams: summaries,
        upstreamCalls: summarizeCalls(calls, suppliers, accounts),
        analytics,
      };
      out.log(JSON.stringify(summary));
    } else {
      out.log(describeCalls(calls, suppliers, accounts));
      out.log(describeRefresh(analytics));
    }
    return failed ? EXIT_FAILURE : EXIT_OK;
  } finally {
    await database.close();
    await upstream.close();
  }
}
