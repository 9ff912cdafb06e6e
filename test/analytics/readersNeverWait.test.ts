import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshAllAnalytics } from '../../src/analytics/refresh.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * A BI reader never waits for an analytics refresh, not even for the first one after an upgrade
 * whose migration left the relation populated with a year of rows. Shown without timing: the
 * refresh is held mid-way (a session locks a synced table it must read), and a reader's query
 * must complete meanwhile, never appearing in pg_locks as waiting for a lock.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
  await t.pool.query(`
    INSERT INTO fulfillment.shipments (container_id, account_number, order_number, status_code, ship_date, carrier_name)
    SELECT 'C' || i, 'ACC1', 'SO-' || i, 'DELIVERED', now() - interval '3 days', 'CarrierA' FROM generate_series(1, 50) i;
    INSERT INTO fulfillment.shipment_events (container_id, event_key, event_time, description)
    SELECT 'C' || i, 'k' || i, now() - interval '2 days', 'Delivered' FROM generate_series(1, 50) i;`);
  await refreshAllAnalytics(t.pool);
});
afterAll(() => t?.close());

async function connect(name: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: t.url, application_name: name });
  await client.connect();
  return client;
}

/** The locks `pid` waits for (not granted), as `mode on relation`. */
async function waitsOf(observer: pg.Client, pid: number): Promise<string[]> {
  const { rows } = await observer.query<{ what: string }>(
    `SELECT l.mode || ' on ' || coalesce(l.relation::regclass::text, l.locktype) AS what
       FROM pg_locks l WHERE l.pid = $1 AND NOT l.granted`,
    [pid],
  );
  return rows.map((r) => r.what);
}

/**
 * Runs `refresh` held mid-way and a reader's count of analytics.shipment_facts meanwhile; answers
 * the locks the reader waited for (none, if it never waited) and what it counted.
 */
async function readDuringRefresh(
  refresh: () => Promise<unknown>,
): Promise<{ waited: string[]; answered: number }> {
  const holder = await connect('test holder');
  const reader = await connect('test reader');
  const observer = await connect('test observer');
  try {
    const before = await reader.query<{ n: string }>('SELECT count(*) AS n FROM analytics.shipment_facts');
    expect(Number(before.rows[0]!.n)).toBe(50);
    // Holds the refresh mid-way: it cannot read the scans until this session lets go.
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE fulfillment.shipment_events IN ACCESS EXCLUSIVE MODE');
    const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const refreshing = refresh();
    await waitFor('the refresh to wait for the held table', async () => {
      const { rows } = await observer.query(
        `SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND $1 = ANY (pg_blocking_pids(pid))`,
        [holderPid],
      );
      return rows.length > 0;
    });
    const readerPid = (await reader.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    let answered: number | undefined;
    const reading = reader
      .query<{ n: string }>('SELECT count(*) AS n FROM analytics.shipment_facts')
      .then((r) => {
        answered = Number(r.rows[0]!.n);
      });
    const waited: string[] = [];
    await waitFor('the reader to answer or to wait for a lock', async () => {
      waited.push(...(await waitsOf(observer, readerPid)));
      return answered !== undefined || waited.length > 0;
    });
    await holder.query('COMMIT');
    await reading;
    await refreshing;
    return { waited, answered: answered! };
  } finally {
    await holder.query('ROLLBACK').catch(() => {});
    await Promise.all([holder.end(), reader.end(), observer.end()]);
  }
}

describe('readers and the analytics refresh', () => {
  it("answers a reader's query while the first refresh after an upgrade rebuilds a populated table", async () => {
    // What the upgrade's migration leaves: the copied rows, and a rebuild asked for.
    await t.pool.query(
      `INSERT INTO sync.analytics_changes (relation, key) VALUES ('analytics.shipment_facts', NULL)`,
    );
    const { waited, answered } = await readDuringRefresh(() => refreshAllAnalytics(t.pool));
    expect(waited, 'locks the reader waited for').toEqual([]);
    expect(answered).toBe(50);
  });

  it("answers a reader's query while a refresh takes in changes", async () => {
    await t.pool.query(
      `UPDATE fulfillment.shipments SET status_code = 'EXCEPTION' WHERE container_id IN ('C1', 'C2')`,
    );
    const { waited, answered } = await readDuringRefresh(() => refreshAllAnalytics(t.pool));
    expect(waited, 'locks the reader waited for').toEqual([]);
    expect(answered).toBe(50);
  });
});
