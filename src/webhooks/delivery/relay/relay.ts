import type { PoolClient } from 'pg';
import type { EventRouting } from '../../endpoints/endpointFilter.ts';
import { endpointWants, listEndpoints } from '../../endpoints/endpoints.ts';
import type { DeliveryJob } from '../deliver.ts';
import { createDeliveries } from '../deliveryStates.ts';
import { announceDeliveries } from '../dispatcher.ts';

/**
 * Wakes the sender of new deliveries early (this process's dispatcher; other workers hear the
 * announcement committed with them). Their state is already committed in Postgres, so a failing or
 * lost wake-up only delays them until the dispatcher's next poll; it must be idempotent.
 */
export type Enqueue = (jobs: readonly DeliveryJob[]) => Promise<void>;

export interface RelayDeps {
  pool: { connect(): Promise<PoolClient> };
  /** Optional fast path, called after the commit. */
  enqueue?: Enqueue;
  /** Told when the fast path failed (the deliveries are safe; the sweeper sends them). */
  onEnqueueError?: (error: Error) => void;
  /** Events claimed per transaction. */
  batchSize?: number;
}

/**
 * Fans undispatched, unsuppressed events out to the enabled endpoints that want them: claims rows
 * with `FOR UPDATE SKIP LOCKED` (never by an id or seq high-water mark: sequence values commit out
 * of order), stores one pending delivery per endpoint in sync.webhook_delivery_states and marks the
 * events dispatched, in one transaction that also announces them on DELIVERIES_CHANNEL; only then
 * wakes the sender. A crash before the commit leaves the events undispatched and nothing sent; a
 * crash after it leaves pending deliveries that any worker's dispatcher finds due. Returns the counts.
 */
export async function relayOnce(deps: RelayDeps): Promise<{ events: number; jobs: number }> {
  const batchSize = deps.batchSize ?? 500;
  const total = { events: 0, jobs: 0 };
  for (;;) {
    const batch = await relayBatch(deps, batchSize);
    total.events += batch.events;
    total.jobs += batch.jobs.length;
    if (batch.jobs.length > 0 && deps.enqueue) {
      await deps.enqueue(batch.jobs).catch((error: Error) => deps.onEnqueueError?.(error));
    }
    if (batch.events < batchSize) return total;
  }
}

async function relayBatch(
  deps: RelayDeps,
  batchSize: number,
): Promise<{ events: number; jobs: DeliveryJob[] }> {
  const client = await deps.pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<EventRouting & { id: string }>(
      `SELECT id, type, stream, scope FROM sync.events
        WHERE dispatched_at IS NULL AND NOT suppressed
        ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`,
      [batchSize],
    );
    if (rows.length === 0) {
      await client.query('COMMIT');
      return { events: 0, jobs: [] };
    }
    const endpoints = (await listEndpoints(client)).filter((endpoint) => endpoint.enabled);
    const jobs: DeliveryJob[] = rows.flatMap((event) =>
      endpoints
        .filter((endpoint) => endpointWants(endpoint, event))
        .map((endpoint) => ({ endpointId: endpoint.id, eventId: event.id })),
    );
    await createDeliveries(client, jobs, { now: new Date() });
    await client.query('UPDATE sync.events SET dispatched_at = now() WHERE id = ANY($1::text[])', [
      rows.map((row) => row.id),
    ]);
    if (jobs.length > 0) await announceDeliveries(client);
    await client.query('COMMIT');
    return { events: rows.length, jobs };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
