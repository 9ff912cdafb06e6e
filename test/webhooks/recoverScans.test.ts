import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../src/db/queryable.ts';
import { relayOnce } from '../../src/webhooks/delivery/relay/relay.ts';
import { recoverEndpoint } from '../../src/webhooks/recovery/recover.ts';
import { createTestDatabase } from './harness.ts';

/**
 * `webhooks recover` and the relay read through indexes: what their queries read does not grow
 * with the history kept in sync.events, sync.webhook_deliveries and sync.webhook_delivery_states.
 * Each query the production code sends is run once more under EXPLAIN ANALYZE, and the rows its
 * plan reads (returned plus filtered out, over every loop) are summed per table.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

const T = new Date('2034-06-01T00:00:00Z');
const NOW = new Date('2034-06-02T00:00:00Z');

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

/** Rows each table's scans read in a plan: returned and filtered out, times their loops. */
function rowsRead(node: PlanNode, into: Record<string, number> = {}): Record<string, number> {
  if (node['Relation Name']) {
    const per =
      (node['Actual Rows'] ?? 0) +
      (node['Rows Removed by Filter'] ?? 0) +
      (node['Rows Removed by Index Recheck'] ?? 0);
    const name = node['Relation Name'];
    into[name] = (into[name] ?? 0) + per * (node['Actual Loops'] ?? 1);
  }
  for (const child of node.Plans ?? []) rowsRead(child, into);
  return into;
}

/** A Queryable that EXPLAIN ANALYZEs every SELECT it passes on, adding up the rows read per table. */
function explaining(db: Queryable, read: Record<string, number>): Queryable {
  return {
    query: (async (text: string, values?: unknown[]) => {
      if (/^\s*(WITH|SELECT)\b/i.test(text)) {
        const { rows } = await db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
        const plan = (rows[0] as { 'QUERY PLAN': Array<{ Plan: PlanNode }> })['QUERY PLAN'][0]?.Plan;
        if (plan)
          for (const [table, n] of Object.entries(rowsRead(plan))) read[table] = (read[table] ?? 0) + n;
      }
      return db.query(text, values);
    }) as Queryable['query'],
  };
}

/**
 * History before T that recover must not read: `count` old events dispatched long ago to the
 * endpoint and an other one, each delivered (attempt rows and states).
 */
async function addHistory(pool: pg.Pool, from: number, count: number): Promise<void> {
  await pool.query(
    `INSERT INTO sync.events (id, type, subject_kind, subject_key, occurred_at, detected_at, data, dispatched_at)
     SELECT 'evt_old_' || i, 'shipment.delivered', 'shipment', 'C' || i, $3, $3, '{}'::jsonb,
            $3::timestamptz + i * interval '1 second'
       FROM generate_series($1::int, $2::int) i`,
    [from, from + count - 1, new Date(T.getTime() - 30 * 86_400_000)],
  );
  for (const endpoint of ['ep_r', 'ep_other']) {
    await pool.query(
      `INSERT INTO sync.webhook_delivery_states (endpoint_id, event_id, status, attempts_made, finished_at, created_at)
       SELECT $3, 'evt_old_' || i, 'succeeded', 1, $4, $4 FROM generate_series($1::int, $2::int) i`,
      [from, from + count - 1, endpoint, new Date(T.getTime() - 20 * 86_400_000)],
    );
    await pool.query(
      `INSERT INTO sync.webhook_deliveries (endpoint_id, event_id, attempt, status, response_code, attempted_at, created_at)
       SELECT $3, 'evt_old_' || i, 1, CASE WHEN i % 10 = 0 THEN 'failed' ELSE 'succeeded' END, 200, $4, $4
         FROM generate_series($1::int, $2::int) i`,
      [from, from + count - 1, endpoint, new Date(T.getTime() - 20 * 86_400_000)],
    );
  }
  await pool.query('ANALYZE sync.events, sync.webhook_deliveries, sync.webhook_delivery_states');
}

/** Since T: the endpoint was disabled for an hour (5 events dispatched meanwhile) and 3 attempts failed. */
async function addRecentTrouble(pool: pg.Pool): Promise<void> {
  await pool.query(
    `INSERT INTO sync.webhook_endpoints (id, url, secret) VALUES ('ep_r', 'https://r.example', 'whsec_r'),
       ('ep_other', 'https://o.example', 'whsec_o')`,
  );
  await pool.query(
    `INSERT INTO sync.webhook_endpoint_disablements (endpoint_id, disabled_by, reason, disabled_at, enabled_at)
     VALUES ('ep_r', 'operator', 'by hand', $1, $2)`,
    [new Date(T.getTime() + 3_600_000), new Date(T.getTime() + 7_200_000)],
  );
  await pool.query(
    `INSERT INTO sync.events (id, type, subject_kind, subject_key, occurred_at, detected_at, data, dispatched_at)
     SELECT 'evt_missed_' || i, 'shipment.delivered', 'shipment', 'M' || i, $1, $1, '{}'::jsonb,
            $1::timestamptz + i * interval '1 minute'
       FROM generate_series(1, 5) i`,
    [new Date(T.getTime() + 3_700_000)],
  );
  await pool.query(
    `INSERT INTO sync.events (id, type, subject_kind, subject_key, occurred_at, detected_at, data, dispatched_at)
     SELECT 'evt_failed_' || i, 'shipment.delivered', 'shipment', 'F' || i, $1, $1, '{}'::jsonb, $1
       FROM generate_series(1, 3) i`,
    [new Date(T.getTime() + 10_000_000)],
  );
  await pool.query(
    `INSERT INTO sync.webhook_delivery_states (endpoint_id, event_id, status, attempts_made, finished_at, last_error)
     SELECT 'ep_r', 'evt_failed_' || i, 'gave_up', 1, $1, 'receiver answered HTTP 500' FROM generate_series(1, 3) i`,
    [new Date(T.getTime() + 10_000_000)],
  );
  await pool.query(
    `INSERT INTO sync.webhook_deliveries (endpoint_id, event_id, attempt, status, response_code, attempted_at)
     SELECT 'ep_r', 'evt_failed_' || i, 1, 'gave_up', 500, $1 FROM generate_series(1, 3) i`,
    [new Date(T.getTime() + 10_000_000)],
  );
}

/** Rows per table that one recover of ep_r since T reads (its queries, before it stores anything). */
async function recoverReads(): Promise<{ read: Record<string, number>; found: [number, number] }> {
  const read: Record<string, number> = {};
  const client = await database.pool.connect();
  try {
    // Rolled back: the deliveries it stores would change what the next measurement finds.
    await client.query('BEGIN');
    const result = await recoverEndpoint(explaining(client, read), 'ep_r', T, NOW);
    await client.query('ROLLBACK');
    return { read, found: [result.failed, result.missedWhileDisabled] };
  } finally {
    client.release();
  }
}

/** Rows per table the relay's scan for undispatched events reads when there are none. */
async function relayReads(): Promise<Record<string, number>> {
  const read: Record<string, number> = {};
  await relayOnce({
    pool: {
      connect: async () => {
        const client = await database.pool.connect();
        return Object.assign(Object.create(client) as pg.PoolClient, explaining(client, read), {
          release: (error?: Error | boolean) => client.release(error),
        });
      },
    },
  });
  return read;
}

describe('what recover and the relay read', () => {
  it('stays the same when the kept history grows tenfold', async () => {
    await addRecentTrouble(database.pool);
    await addHistory(database.pool, 1, 2_000);
    const small = { recover: await recoverReads(), relay: await relayReads() };
    await addHistory(database.pool, 2_001, 18_000);
    const large = { recover: await recoverReads(), relay: await relayReads() };
    expect(small.recover.found).toEqual([3, 5]);
    expect(large).toEqual(small);
  });
});
