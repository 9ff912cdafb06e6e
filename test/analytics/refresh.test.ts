import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshAfterRun, refreshStaleAnalytics } from '../../src/analytics/refresh.ts';
import { CARRIER_PERFORMANCE_WEEKLY_QUERY } from '../../src/db/schema/analytics/carrierPerformance.ts';
import { ORDER_LIFECYCLE_QUERY } from '../../src/db/schema/analytics/orderLifecycle.ts';
import { RETURN_RATE_BY_WAREHOUSE_QUERY } from '../../src/db/schema/analytics/returnRates.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * The analytics materialized views follow the syncs that change their sources: a run that wrote
 * rows makes the views over its tables stale, a refresh brings them (and the views reading them)
 * up to date, at most once per interval, one process at a time.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

const SHIPMENT_VIEWS = [
  'analytics.shipment_facts',
  'analytics.carrier_performance_weekly',
  'analytics.order_lifecycle',
  'analytics.return_rate_by_sku',
  'analytics.return_rate_by_reason',
  'analytics.return_rate_by_warehouse',
];

async function shipShipment(id: string): Promise<void> {
  await t.pool.query(
    `INSERT INTO fulfillment.shipments (container_id, account_number, order_number, status_code, ship_date, carrier_name)
     VALUES ($1, 'ACC1', 'SO-' || $1, 'SHIPPED', now() - interval '1 day', 'CarrierA')`,
    [id],
  );
}

const factCount = async () =>
  Number(
    (await t.pool.query<{ n: string }>('SELECT count(*) AS n FROM analytics.shipment_facts')).rows[0]!.n,
  );

describe('analytics refresh', () => {
  it('creates the views that read shipment_facts from the queries their declarations export', async () => {
    for (const [name, query] of [
      ['carrier_performance_weekly', CARRIER_PERFORMANCE_WEEKLY_QUERY],
      ['order_lifecycle', ORDER_LIFECYCLE_QUERY],
      ['return_rate_by_warehouse', RETURN_RATE_BY_WAREHOUSE_QUERY],
    ] as const) {
      const client = await t.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query(`CREATE TEMP VIEW declared AS ${query}`);
        const { rows } = await client.query<{ declared: string; migrated: string }>(
          `SELECT pg_get_viewdef('declared'::regclass) AS declared, pg_get_viewdef($1::regclass) AS migrated`,
          [`analytics.${name}`],
        );
        expect(rows[0]!.migrated, name).toBe(rows[0]!.declared);
      } finally {
        await client.query('ROLLBACK');
        client.release();
      }
    }
  });

  it('refreshes after a run that wrote rows the views over its tables, then those reading them', async () => {
    await shipShipment('C1');
    expect(await factCount()).toBe(0);
    const outcomes = await refreshAfterRun(t.pool, { stream: 'shipments', inserted: 1, updated: 0 });
    expect(outcomes.map((o) => [o.relation, o.status])).toEqual(SHIPMENT_VIEWS.map((v) => [v, 'refreshed']));
    expect(await factCount()).toBe(1);
    const weekly = await t.pool.query(
      'SELECT carrier_name, shipments FROM analytics.carrier_performance_weekly',
    );
    expect(weekly.rows).toEqual([{ carrier_name: 'CarrierA', shipments: 1 }]);
  });

  it('leaves the views alone after a run that wrote nothing', async () => {
    await shipShipment('C2');
    const outcomes = await refreshAfterRun(t.pool, { stream: 'shipments', inserted: 0, updated: 0 });
    expect(outcomes).toEqual([]);
    expect(await factCount()).toBe(1);
  });

  it('refreshes a stale view at most once per interval, and catches up once it has passed', async () => {
    const soon = await refreshAfterRun(
      t.pool,
      { stream: 'shipments', inserted: 1, updated: 0 },
      { minIntervalMs: 60_000 },
    );
    expect(soon).toEqual([]);
    expect(await factCount()).toBe(1);
    // Still stale: the next call past the interval refreshes it without a new write.
    const later = await refreshStaleAnalytics(t.pool, { minIntervalMs: 0 });
    expect(later.map((o) => o.relation)).toEqual(SHIPMENT_VIEWS);
    expect(await factCount()).toBe(2);
    expect(await refreshStaleAnalytics(t.pool, { minIntervalMs: 0 })).toEqual([]);
  });

  it('skips a view another process is refreshing, which stays stale for the next call', async () => {
    await shipShipment('C3');
    const other = await t.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query(
        `SELECT pg_advisory_xact_lock(hashtext('analytics-refresh:analytics.shipment_facts'))`,
      );
      const outcomes = await refreshAfterRun(
        t.pool,
        { stream: 'orders', inserted: 1, updated: 0 },
        { minIntervalMs: 0 },
      );
      expect(outcomes.find((o) => o.relation === 'analytics.shipment_facts')?.status).toBe('busy');
    } finally {
      await other.query('ROLLBACK');
      other.release();
    }
    expect(await factCount()).toBe(2);
    const next = await refreshStaleAnalytics(t.pool, { minIntervalMs: 0 });
    expect(next.map((o) => o.relation)).toContain('analytics.shipment_facts');
    expect(await factCount()).toBe(3);
  });

  it('refreshes the inventory views after an inventory run, not the shipment ones', async () => {
    await t.pool.query(`
      INSERT INTO fulfillment.inventory_history
        (supplier_id, warehouse_code, sub_inventory_code, sku, valid_from, valid_to, qty_on_hand, qty_available_to_sell)
      VALUES ('S1', 'GLW', 'FG', 'SKU1', now() - interval '2 days', now() - interval '1 day', 5, 5),
             ('S1', 'GLW', 'FG', 'SKU1', now() - interval '1 day', NULL, 0, 0);`);
    const outcomes = await refreshAfterRun(t.pool, { stream: 'inventory', inserted: 1, updated: 0 });
    expect(outcomes.map((o) => o.relation)).toEqual([
      'analytics.daily_inventory',
      'analytics.stock_out_spells',
    ]);
    const spells = await t.pool.query('SELECT sku, is_ongoing FROM analytics.stock_out_spells');
    expect(spells.rows).toEqual([{ sku: 'SKU1', is_ongoing: true }]);
    const refreshed = await t.pool.query<{ relation: string; last_error: string | null }>(
      'SELECT relation, last_error FROM sync.analytics_refreshes WHERE refreshed_as_of IS NOT NULL ORDER BY 1',
    );
    expect(refreshed.rows.every((r) => r.last_error === null)).toBe(true);
  });
});
