import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';
import { modelOf } from './models/index.ts';
import { requestRebuild } from './models/model.ts';
import { recordFailure, recordRefresh } from './refreshRecord.ts';
import { MAINTAINED } from './views.ts';

/**
 * Refreshes of the tables of schema analytics the worker keeps (src/analytics/models/). One
 * refresh is one REPEATABLE READ transaction: it takes in a batch of the changes queued for its
 * table (sync.analytics_changes) as its snapshot sees them, recomputes what they touch, and
 * deletes exactly those changes; so a refresh killed midway leaves the table and the queue as they
 * were, and the next one catches up. Readers keep reading the committed rows meanwhile: a refresh
 * only ever deletes and inserts rows, it never locks a table.
 */

/** Changes one refresh takes in at most: bounds its transaction, so no refresh waits long behind another. */
export const BATCH_CHANGES = 20_000;
/** A backlog beyond this (a table no refresher ran for long) is folded into one rebuild request. */
export const MAX_PENDING_CHANGES = 2_000_000;

/** What one refresh did. */
export interface RefreshOutcome {
  relation: string;
  status: 'refreshed' | 'busy' | 'failed';
  /** Whether the refresh rebuilt the table whole (asked for, or its backlog was too long). */
  rebuilt: boolean;
  durationMs: number;
  /** Queued changes taken in. */
  changes: number;
  /** Queued changes left for the next refresh. */
  pending: number;
  error?: string;
}

export interface RefreshOptions {
  /** Rebuild the table whole instead of taking in its queued changes. */
  rebuild?: boolean;
  batchChanges?: number;
  /** A backlog beyond this is folded into a rebuild (default MAX_PENDING_CHANGES). */
  maxPending?: number;
  /** A busy table (another process refreshing it) is waited for rather than skipped. */
  wait?: boolean;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

/** Refreshes one maintained table once (a batch of its changes, or a rebuild). Never throws. */
export async function refreshRelation(
  pool: Pool,
  relation: string,
  options: RefreshOptions = {},
): Promise<RefreshOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const taken = await inTransaction(pool, relation, options, elapsed);
    if (!taken) return { relation, status: 'busy', rebuilt: false, durationMs: 0, changes: 0, pending: 0 };
    if (taken.changes > 0 || taken.rebuilt) {
      options.logger?.info({ relation, durationMs: elapsed(), ...taken }, 'analytics table refreshed');
    }
    const { changes, pending, rebuilt } = taken;
    return { relation, status: 'refreshed', rebuilt, durationMs: elapsed(), changes, pending };
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    // Its own connection was released (and dropped) first: a pool of one must not wait for itself.
    await recordFailure(pool, relation, message).catch(() => {});
    options.logger?.warn({ relation, error: message }, 'analytics refresh failed');
    return {
      relation,
      status: 'failed',
      rebuilt: false,
      durationMs: elapsed(),
      changes: 0,
      pending: 0,
      error: message,
    };
  }
}

/** The refresh's transaction; null when another process holds the table. */
async function inTransaction(
  pool: Pool,
  relation: string,
  options: RefreshOptions,
  elapsed: () => number,
): Promise<Taken | null> {
  const client = await pool.connect();
  let failure: Error | undefined;
  // A connection lost mid-refresh (a killed backend) is reported on the client: it fails this
  // refresh, never the process.
  const onLost = (error: Error) => {
    failure ??= error;
  };
  client.on('error', onLost);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
    if (!(await lock(client, relation, options.wait ?? false))) {
      await client.query('ROLLBACK');
      return null;
    }
    // The planner cannot know how many days a version covers and would JIT-compile for seconds.
    await client.query('SET LOCAL jit = off');
    const taken = await takeIn(client, relation, options);
    await recordRefresh(client, { relation, durationMs: elapsed(), ...taken });
    await client.query('COMMIT');
    return taken;
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    await client.query('ROLLBACK').catch(() => {});
    throw failure;
  } finally {
    // A failed refresh's connection may be dead: never hand it out again (its listener stays with it).
    if (!failure) client.off('error', onLost);
    client.release(failure);
  }
}

async function lock(client: PoolClient, relation: string, wait: boolean): Promise<boolean> {
  const key = "hashtext('analytics-refresh:' || $1)";
  if (wait) {
    await client.query(`SELECT pg_advisory_xact_lock(${key})`, [relation]);
    return true;
  }
  const { rows } = await client.query<{ locked: boolean }>(
    `SELECT pg_try_advisory_xact_lock(${key}) AS locked`,
    [relation],
  );
  return rows[0]?.locked === true;
}

/** Counts the changes queued for `relation` (visible in the snapshot), up to `cap` + 1. */
async function queued(client: PoolClient, relation: string, cap: number): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::integer AS n FROM (SELECT 1 FROM sync.analytics_changes WHERE relation = $1 LIMIT $2) q`,
    [relation, cap + 1],
  );
  return rows[0]?.n ?? 0;
}

/** What a refresh took in. */
interface Taken {
  changes: number;
  pending: number;
  newestChangeAt: Date | null;
  rebuilt: boolean;
}

/** Takes in a batch of changes (or rebuilds) and deletes what it took in. */
async function takeIn(client: PoolClient, relation: string, options: RefreshOptions): Promise<Taken> {
  const model = modelOf(relation);
  const maxPending = options.maxPending ?? MAX_PENDING_CHANGES;
  const backlog = await queued(client, relation, maxPending);
  const asked = await client.query(
    'SELECT 1 FROM sync.analytics_changes WHERE relation = $1 AND key IS NULL LIMIT 1',
    [relation],
  );
  if (options.rebuild || asked.rows.length > 0 || backlog > maxPending) {
    await model.rebuild(client);
    const done = await deleteTaken(client, relation, null);
    return { ...done, pending: 0, rebuilt: true };
  }
  const batch = await client.query<{ max_id: string | null }>(
    `SELECT max(id) AS max_id FROM (SELECT id FROM sync.analytics_changes WHERE relation = $1 ORDER BY id LIMIT $2) b`,
    [relation, options.batchChanges ?? BATCH_CHANGES],
  );
  const maxId = batch.rows[0]?.max_id === null ? null : Number(batch.rows[0]?.max_id);
  await model.apply(client, maxId === null ? null : { relation, maxId });
  const done =
    maxId === null ? { changes: 0, newestChangeAt: null } : await deleteTaken(client, relation, maxId);
  return { ...done, pending: await queued(client, relation, maxPending), rebuilt: false };
}

/** Deletes the changes a refresh took in (all it sees when `maxId` is null): in its transaction. */
async function deleteTaken(client: PoolClient, relation: string, maxId: number | null) {
  const { rows } = await client.query<{ n: number; newest: Date | null }>(
    `WITH taken AS (DELETE FROM sync.analytics_changes WHERE relation = $1 AND ($2::bigint IS NULL OR id <= $2)
                    RETURNING queued_at)
     SELECT count(*)::integer AS n, max(queued_at) AS newest FROM taken`,
    [relation, maxId],
  );
  return { changes: rows[0]?.n ?? 0, newestChangeAt: rows[0]?.newest ?? null };
}

/**
 * Brings every maintained table up to date now, in refresh order, each until nothing it can see is
 * left queued (after a first load, `sync --once`, `backfill`, in tests). Never throws.
 */
export async function refreshAllAnalytics(
  pool: Pool,
  options: RefreshOptions = {},
): Promise<RefreshOutcome[]> {
  const outcomes: RefreshOutcome[] = [];
  for (const relation of MAINTAINED) outcomes.push(await drain(pool, relation, options));
  return outcomes;
}

/** Refreshes `relation` batch after batch until nothing is left queued; the outcomes summed. */
export async function drain(
  pool: Pool,
  relation: string,
  options: RefreshOptions = {},
): Promise<RefreshOutcome> {
  let total: RefreshOutcome | undefined;
  for (let again = true; again; ) {
    const one = await refreshRelation(pool, relation, options);
    total = {
      ...one,
      rebuilt: one.rebuilt || (total?.rebuilt ?? false),
      durationMs: one.durationMs + (total?.durationMs ?? 0),
      changes: one.changes + (total?.changes ?? 0),
    };
    again = one.status === 'refreshed' && one.pending > 0;
    options = { ...options, rebuild: false };
  }
  return total!;
}

/** Rebuilds `relations` whole (and what reads them, by the requests their rebuild queues), then drains all. */
export async function rebuildAnalytics(
  pool: Pool,
  relations: readonly string[],
  options: Omit<RefreshOptions, 'rebuild'> = {},
): Promise<RefreshOutcome[]> {
  const client = await pool.connect();
  try {
    await requestRebuild(client, relations);
  } finally {
    client.release();
  }
  return refreshAllAnalytics(pool, options);
}
