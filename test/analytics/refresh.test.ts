import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshAllAnalytics, refreshRelation } from '../../src/analytics/refresh.ts';
import { AnalyticsRefresher } from '../../src/analytics/refresher.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * How the analytics tables follow the synced ones: a write queues the keys it touches in its own
 * transaction; a refresh takes in a bounded batch of them and deletes exactly those in its own
 * transaction, so a killed refresh loses nothing and the next catches up; `refreshed_as_of` moves
 * only once nothing is left; the worker's refresher keeps a cadence per table and rebuilds in a
 * lane of its own.
 */

const FACTS = 'analytics.shipment_facts';
let t: TestDatabase;
let serial = 0;

beforeAll(async () => {
  t = await createTestDatabase({ max: 6 });
  // The install's rebuild requests, taken in: from here on only changes are queued.
  await refreshAllAnalytics(t.pool);
});
afterAll(() => t?.close());

/** Ships `count` shipments, one statement each (as many queued changes). */
async function ship(count = 1, db: pg.Pool | pg.Client = t.pool): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `C${++serial}`;
    ids.push(id);
    await db.query(
      `INSERT INTO fulfillment.shipments (container_id, account_number, order_number, status_code, ship_date, carrier_name)
       VALUES ($1, 'ACC1', 'SO-' || $1, 'SHIPPED', now() - interval '1 day', 'CarrierA')`,
      [id],
    );
  }
  return ids;
}

const count = async (sql: string, values: unknown[] = []) =>
  Number((await t.pool.query<{ n: string }>(sql, values)).rows[0]!.n);
const facts = () => count(`SELECT count(*) AS n FROM ${FACTS}`);
const queued = (relation = FACTS) =>
  count('SELECT count(*) AS n FROM sync.analytics_changes WHERE relation = $1', [relation]);
const record = async (relation = FACTS) =>
  (
    await t.pool.query<{ refreshed_as_of: Date | null; pending_changes: number; last_error: string | null }>(
      'SELECT refreshed_as_of, pending_changes, last_error FROM sync.analytics_refreshes WHERE relation = $1',
      [relation],
    )
  ).rows[0];

async function connect(name: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: t.url, application_name: name });
  await client.connect();
  return client;
}

/** Waits until a session of `name` waits for a lock `holderPid` holds; answers its pid. */
async function blockedBy(observer: pg.Client, holderPid: number, name: string): Promise<number> {
  let pid = 0;
  await waitFor(`${name} to wait for the held lock`, async () => {
    const { rows } = await observer.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity
        WHERE datname = current_database() AND application_name = $2 AND $1 = ANY (pg_blocking_pids(pid))`,
      [holderPid, name],
    );
    pid = rows[0]?.pid ?? 0;
    return pid > 0;
  });
  return pid;
}

describe('analytics refresh', () => {
  it('queues the keys a write touches in its transaction, and nothing for a write rolled back', async () => {
    const before = await queued();
    const client = await connect('test writer');
    try {
      await client.query('BEGIN');
      await ship(1, client);
      await client.query('ROLLBACK');
      expect(await queued()).toBe(before);
      await ship(1, client);
      expect(await queued()).toBe(before + 1);
    } finally {
      await client.end();
    }
  });

  it('takes in the queued changes, deletes those, passes them on to the tables reading it', async () => {
    const before = await facts();
    const outcome = await refreshRelation(t.pool, FACTS);
    expect(outcome).toMatchObject({ status: 'refreshed', changes: 1, pending: 0 });
    expect(await facts()).toBe(before + 1);
    expect(await queued()).toBe(0);
    expect(await queued('analytics.carrier_performance_weekly')).toBe(1);
    await refreshAllAnalytics(t.pool);
    const weekly = await t.pool.query(
      'SELECT carrier_name, shipments FROM analytics.carrier_performance_weekly',
    );
    expect(weekly.rows).toEqual([{ carrier_name: 'CarrierA', shipments: await facts() }]);
  });

  it('leaves what is beyond its batch for the next refresh; refreshed_as_of moves once none is left', async () => {
    const asOf = (await record())!.refreshed_as_of!;
    await ship(5);
    const first = await refreshRelation(t.pool, FACTS, { batchChanges: 2 });
    expect(first).toMatchObject({ status: 'refreshed', changes: 2, pending: 3 });
    expect((await record())!.refreshed_as_of).toEqual(asOf);
    expect((await record())!.pending_changes).toBe(3);
    await refreshRelation(t.pool, FACTS, { batchChanges: 2 });
    const last = await refreshRelation(t.pool, FACTS, { batchChanges: 2 });
    expect(last).toMatchObject({ changes: 1, pending: 0 });
    expect((await record())!.refreshed_as_of!.getTime()).toBeGreaterThan(asOf.getTime());
  });

  it('loses nothing to a refresh killed midway: the table and the queue stay, the next one catches up', async () => {
    const before = await facts();
    await ship(2);
    const holder = await connect('test holder');
    const observer = await connect('test observer');
    try {
      // Holds the refresh after it deleted the old rows, before it can read the scans.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE fulfillment.shipment_events IN ACCESS EXCLUSIVE MODE');
      const holderPid = (await holder.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const refreshing = refreshRelation(t.pool, FACTS);
      const name = `test ${t.name}`;
      const pid = await blockedBy(observer, holderPid, name);
      await observer.query('SELECT pg_terminate_backend($1)', [pid]);
      expect((await refreshing).status).toBe('failed');
      await holder.query('COMMIT');
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await Promise.all([holder.end(), observer.end()]);
    }
    expect(await facts()).toBe(before);
    expect(await queued()).toBe(2);
    expect((await record())!.last_error).toMatch(/terminat/);
    expect(await refreshRelation(t.pool, FACTS)).toMatchObject({ status: 'refreshed', changes: 2 });
    expect(await facts()).toBe(before + 2);
    expect((await record())!.last_error).toBeNull();
  });

  it('skips a table another process is refreshing; its changes wait for the next refresh', async () => {
    await ship(1);
    const other = await connect('test other refresher');
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(hashtext('analytics-refresh:' || $1))`, [FACTS]);
      expect((await refreshRelation(t.pool, FACTS)).status).toBe('busy');
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
    expect(await queued()).toBe(1);
    expect(await refreshRelation(t.pool, FACTS)).toMatchObject({ status: 'refreshed', changes: 1 });
  });

  it('folds a backlog beyond its bound into one rebuild', async () => {
    await ship(4);
    const outcome = await refreshRelation(t.pool, FACTS, { maxPending: 3 });
    expect(outcome).toMatchObject({ status: 'refreshed', rebuilt: true, pending: 0 });
    expect(await queued()).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM fulfillment.shipments`)).toBe(await facts());
  });
});

describe("the worker's refresher", () => {
  it('refreshes each table on its own while a rebuild waits in its own lane', async () => {
    await refreshAllAnalytics(t.pool);
    const holder = await connect('test holder');
    const refresher = new AnalyticsRefresher(t.pool, {
      intervalMs: 200,
      logger: { info: () => {}, warn: () => {} },
    });
    try {
      // A rebuild of the daily inventory that cannot finish while the activity is locked.
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE fulfillment.inventory_activity IN ACCESS EXCLUSIVE MODE');
      await t.pool.query(
        `INSERT INTO sync.analytics_changes (relation, key) VALUES ('analytics.daily_inventory', NULL)`,
      );
      refresher.kick();
      await waitFor('the rebuild to wait for the locked activity', async () => {
        const { rows } = await t.pool.query(
          `SELECT 1 FROM pg_locks l JOIN pg_stat_activity a USING (pid)
            WHERE NOT l.granted AND l.relation = 'fulfillment.inventory_activity'::regclass
              AND a.datname = current_database()`,
        );
        return rows.length > 0;
      });
      const [id] = await ship(1);
      await refresher.afterRun(t.pool, { stream: 'shipments', inserted: 1, updated: 0 });
      await waitFor(
        'the new shipment in the facts',
        async () => (await count(`SELECT count(*) AS n FROM ${FACTS} WHERE container_id = $1`, [id])) === 1,
      );
      await holder.query('COMMIT');
      await waitFor('the rebuild', async () => (await queued('analytics.daily_inventory')) === 0);
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      await holder.end();
      await refresher.close();
    }
  });

  it("starts a table's next refresh an interval after its last one ended", async () => {
    const intervalMs = 1500;
    const refresher = new AnalyticsRefresher(t.pool, {
      intervalMs,
      logger: { info: () => {}, warn: () => {} },
    });
    try {
      await waitFor('a refresh by this refresher', async () => (await record())!.pending_changes === 0);
      const ended = async () =>
        (
          await t.pool.query<{ at: Date }>(
            `SELECT last_refresh_at AS at FROM sync.analytics_refreshes WHERE relation = $1`,
            [FACTS],
          )
        ).rows[0]!.at;
      const first = await ended();
      const [id] = await ship(1);
      await refresher.afterRun(t.pool, { stream: 'shipments', inserted: 1, updated: 0 });
      await waitFor(
        'the shipment taken in',
        async () => (await count(`SELECT count(*) AS n FROM ${FACTS} WHERE container_id = $1`, [id])) === 1,
      );
      const second = await ended();
      expect(second.getTime() - first.getTime()).toBeGreaterThanOrEqual(intervalMs);
    } finally {
      await refresher.close();
    }
  });
});
