import type { Pool } from 'pg';
import type { Logger } from 'pino';
import { type CommitResult, commitWindow } from './commitWindow.ts';
import { DEFAULT_DETAIL_RETRY } from './detailRequests.ts';
import { type PreparedWindow, prepareWindow } from './prepareWindow.ts';
import type { Scope, StreamDefinition, Window } from './types.ts';

/**
 * The engine's write stage for records already in hand: prepare (reads, checks, diff) and commit,
 * without a lease, cursor or events. For benchmarks and tests that isolate the write path; syncs
 * go through `runStream`.
 */
export async function storeRecords<R, C>(args: {
  pool: Pool;
  client: C;
  stream: StreamDefinition<R, C>;
  scope: Scope;
  window: Window;
  records: readonly R[];
  timezone: string;
  now: Date;
  logger: Logger;
}): Promise<{ prepared: PreparedWindow<R>; committed: CommitResult }> {
  const { pool, stream, scope, window, now } = args;
  const prepared = await prepareWindow({
    db: pool,
    client: args.client,
    stream,
    scope,
    window,
    ctx: { scope, timezone: args.timezone, now },
    fetched: { records: [...args.records], rejected: [], apiCalls: 0 },
    due: { requests: [], readAt: now.toISOString() },
    logger: args.logger,
  });
  const committed = await commitWindow({
    pool,
    stream: stream as StreamDefinition<R, unknown>,
    scope,
    window,
    prepared,
    lease: undefined,
    now,
    eventSink: undefined,
    eventPolicy: { initialLoad: true, historyBefore: undefined, deliverHistory: false },
    cursor: undefined,
    detailRetry: DEFAULT_DETAIL_RETRY,
    run: {
      stream: stream.name,
      scope,
      mode: 'backfill',
      windowStart: null,
      windowEnd: null,
      window: 'records',
      startedAt: now,
      error: undefined,
      fetched: args.records.length,
      inserted: prepared.changes.filter((c) => c.kind === 'inserted').length,
      updated: prepared.changes.filter((c) => c.kind === 'updated').length,
      unchanged: prepared.unchanged,
      rejected: prepared.quarantined,
      apiCalls: 0,
    },
  });
  return { prepared, committed };
}
