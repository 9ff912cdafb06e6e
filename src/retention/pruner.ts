import { setTimeout as sleep } from 'node:timers/promises';
import type { PoolClient } from 'pg';
import type { RetentionSettings } from '../config/types.ts';
import { restAfterBatch } from './pace.ts';
import { PRUNED_TABLES, type PrunedTable, retentionCutoffs } from './rules.ts';
import {
  batchDeleteSql,
  countSql,
  EVENT_DEPENDANTS_COUNT_SQL,
  EVENTS_DELETE_SQL,
  EVENTS_LOCK_SQL,
  type RuledTable,
} from './statements.ts';

/** What one prune did (or, dry, would do) to a table. */
export interface TablePrune {
  table: PrunedTable;
  /** Rows removed (dry run: rows that would be). */
  removed: number;
  /** The cutoff its rule used; null: kept forever (setting 0). */
  cutoff: Date | null;
}

/** A whole prune: per table, how long it took, and whether it was a dry run. */
export interface PruneReport {
  dryRun: boolean;
  tables: TablePrune[];
  seconds: number;
  /** Set when a table stopped early (a lock it could not take at once); the next prune carries on. */
  interrupted?: string;
}

export interface PruneOptions {
  settings: RetentionSettings;
  now?: Date;
  dryRun?: boolean;
  /**
   * Least pause between two batches (default: settings.batchPauseMs, PRUNE_BATCH_PAUSE_MS); longer
   * after a slow batch (pace.ts); 0: no pause at all.
   */
  pauseMs?: number;
  /** Rest per unit of work between batches (default REST_PER_BUSY, pace.ts; the growth bench varies it). */
  restPerBusy?: number;
  /** Told after every batch (metrics, progress). */
  onBatch?: (table: PrunedTable, removed: number) => void;
  /** Checked between batches: a stopping worker ends the prune early (the next one carries on). */
  shouldStop?: () => boolean;
}

/** How long one batch may wait for a lock that SKIP LOCKED does not cover (foreign-key cascades). */
const BATCH_LOCK_TIMEOUT = '1s';

/**
 * Prunes every bookkeeping table by its rule (statements.ts), each in batches of `batchSize` rows,
 * one short transaction per batch, so nothing else waits on the pruner for longer than a batch.
 * A dry run counts instead and changes nothing. Runs on the caller's client (which holds the
 * pruner's advisory lock: pruneLock.ts).
 */
export async function pruneTables(client: PoolClient, options: PruneOptions): Promise<PruneReport> {
  const started = performance.now();
  const cutoffs = retentionCutoffs(options.settings, options.now ?? new Date());
  const dryRun = options.dryRun ?? false;
  const removed = new Map<PrunedTable, number>(PRUNED_TABLES.map((t) => [t, 0]));
  const add = (table: PrunedTable, n: number) => {
    removed.set(table, (removed.get(table) ?? 0) + n);
    if (n > 0) options.onBatch?.(table, n);
  };
  let interrupted: string | undefined;
  try {
    if (dryRun) await countAll(client, cutoffs, add);
    else interrupted = await deleteAll(client, cutoffs, options, add);
  } catch (error) {
    // Leave no transaction open on the client (it goes back to its pool, lock released).
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return {
    dryRun,
    tables: PRUNED_TABLES.map((table) => ({
      table,
      removed: removed.get(table) ?? 0,
      cutoff: cutoffs[table],
    })),
    seconds: (performance.now() - started) / 1000,
    ...(interrupted ? { interrupted } : {}),
  };
}

type Add = (table: PrunedTable, n: number) => void;
type Cutoffs = Readonly<Record<PrunedTable, Date | null>>;

async function deleteAll(
  client: PoolClient,
  cutoffs: Cutoffs,
  options: PruneOptions,
  add: Add,
): Promise<string | undefined> {
  for (const table of PRUNED_TABLES) {
    const cutoff = cutoffs[table];
    if (cutoff === null || table === 'sync.webhook_delivery_states') continue;
    for (;;) {
      if (options.shouldStop?.()) return 'stopped';
      let n: number;
      const batchStarted = performance.now();
      try {
        n = await deleteBatch(client, table, cutoff, options.settings.batchSize, add);
      } catch (error) {
        // A cascade waiting on a row someone holds: give way, the next prune carries on.
        if ((error as { code?: string }).code === '55P03') return `lock busy on ${table}`;
        throw error;
      }
      if (n < options.settings.batchSize) break;
      const pauseMs = options.pauseMs ?? options.settings.batchPauseMs;
      await sleep(restAfterBatch(performance.now() - batchStarted, pauseMs, options.restPerBusy));
    }
  }
  return undefined;
}

/** One transaction: at most `batchSize` rows of the table (events: with their states and attempts). */
async function deleteBatch(
  client: PoolClient,
  table: RuledTable,
  cutoff: Date,
  batchSize: number,
  add: Add,
): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query(`SET LOCAL lock_timeout = '${BATCH_LOCK_TIMEOUT}'`);
    if (table === 'sync.events') return await deleteEventBatch(client, cutoff, batchSize, add);
    const result = await client.query(batchDeleteSql(table), [cutoff, batchSize]);
    await client.query('COMMIT');
    const n = result.rowCount ?? 0;
    add(table, n);
    return n;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Events, in the caller's transaction: chosen and locked, then deleted by a second statement that
 * checks again for pending deliveries (see EVENTS_DELETE_SQL), then committed. Returns how many
 * were chosen: an event the second check keeps does not end the table's batches.
 */
async function deleteEventBatch(
  client: PoolClient,
  cutoff: Date,
  batchSize: number,
  add: Add,
): Promise<number> {
  const chosen = await client.query<{ id: string }>(EVENTS_LOCK_SQL, [cutoff, batchSize]);
  const { rows } = await client.query<{ events: number; attempts: number; states: number }>(
    EVENTS_DELETE_SQL,
    [chosen.rows.map((row) => row.id)],
  );
  await client.query('COMMIT');
  const row = rows[0] ?? { events: 0, attempts: 0, states: 0 };
  add('sync.webhook_deliveries', row.attempts);
  add('sync.webhook_delivery_states', row.states);
  add('sync.events', row.events);
  return chosen.rows.length;
}

/** Dry run: counts what each rule would remove, in one read-only transaction (one snapshot). */
async function countAll(client: PoolClient, cutoffs: Cutoffs, add: Add): Promise<void> {
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  for (const table of PRUNED_TABLES) {
    const cutoff = cutoffs[table];
    if (cutoff === null || table === 'sync.webhook_delivery_states') continue;
    const { rows } = await client.query<{ n: number }>(countSql(table), [cutoff]);
    add(table, rows[0]?.n ?? 0);
    if (table === 'sync.events') {
      // Attempts older than their own cutoff are already counted above; these go with the events.
      const dependants = await client.query<{ states: number; attempts: number }>(
        EVENT_DEPENDANTS_COUNT_SQL,
        [cutoff, cutoffs['sync.webhook_deliveries']],
      );
      add('sync.webhook_delivery_states', dependants.rows[0]?.states ?? 0);
      add('sync.webhook_deliveries', dependants.rows[0]?.attempts ?? 0);
    }
  }
  await client.query('ROLLBACK');
}
