import type { PoolClient } from 'pg';
import type { DeliveryJob } from './deliver.ts';
import { endpointWants, listEndpoints } from './endpoints.ts';

/** Hands delivery jobs to a queue (BullMQ in production, in-process in tests). Must be idempotent per job key. */
export type Enqueue = (jobs: readonly DeliveryJob[]) => Promise<void>;

export interface RelayDeps {
  pool: { connect(): Promise<PoolClient> };
  enqueue: Enqueue;
  /** Events claimed per transaction. */
  batchSize?: number;
}

/**
 * Fans undispatched, unsuppressed events out to the enabled endpoints that want them. Claims rows
 * with `FOR UPDATE SKIP LOCKED` (never by an id or seq high-water mark: sequence values commit out
 * of order), enqueues, then marks them dispatched in the same transaction. A crash after enqueue
 * and before commit re-enqueues the same job keys, which the queue ignores. Returns the counts.
 */
export async function relayOnce(deps: RelayDeps): Promise<{ events: number; jobs: number }> {
  const batchSize = deps.batchSize ?? 500;
  const total = { events: 0, jobs: 0 };
  for (;;) {
    const batch = await relayBatch(deps, batchSize);
    total.events += batch.events;
    total.jobs += batch.jobs;
    if (batch.events < batchSize) return total;
  }
}

async function relayBatch(deps: RelayDeps, batchSize: number): Promise<{ events: number; jobs: number }> {
  const client = await deps.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string; type: string }>(
      `SELECT id, type FROM sync.events
        WHERE dispatched_at IS NULL AND NOT suppressed
        ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [batchSize],
    );
    if (rows.length === 0) {
      await client.query('COMMIT');
      return { events: 0, jobs: 0 };
    }
    const endpoints = (await listEndpoints(client)).filter((endpoint) => endpoint.enabled);
    const jobs: DeliveryJob[] = rows.flatMap((event) =>
      endpoints
        .filter((endpoint) => endpointWants(endpoint, event.type))
        .map((endpoint) => ({
          endpointId: endpoint.id,
          eventId: event.id,
        })),
    );
    if (jobs.length > 0) await deps.enqueue(jobs);
    await client.query('UPDATE sync.events SET dispatched_at = now() WHERE id = ANY($1::text[])', [
      rows.map((row) => row.id),
    ]);
    await client.query('COMMIT');
    return { events: rows.length, jobs: jobs.length };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** The queue key of a delivery: one job per endpoint and event (replays get their own suffix). */
export function deliveryJobKey(job: DeliveryJob): string {
  // BullMQ job ids may not contain ':'.
  const base = `${job.endpointId}_${job.eventId}`;
  return job.replayOf ? `${base}_replay_${job.replayOf}` : base;
}
