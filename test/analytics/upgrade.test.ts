import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { refreshAllAnalytics } from '../../src/analytics/refresh.ts';
import { MAINTAINED } from '../../src/analytics/views.ts';
import { runMigrations } from '../../src/db/migrate.ts';
import { differencesFromRebuild, mismatches } from '../helpers/analyticsRebuild.ts';
import { freshDatabaseUrl } from '../helpers/db.ts';
import { migrationsBefore } from '../helpers/migrationsBefore.ts';

/**
 * Upgrading a database whose analytics were materialized views: the migration copies their rows
 * into the tables that replace them (readers keep their answers), asks for a rebuild of each, and
 * the first refresh rebuilds them from the synced tables (what changed since their last refresh
 * included); from then on the triggers queue every change.
 */

const target = freshDatabaseUrl();
const before = migrationsBefore('analytics_incremental');
afterAll(async () => {
  before.remove();
  await target.drop();
});

describe('upgrading to analytics kept incrementally', () => {
  it('keeps the rows readers had, rebuilds every table once, then follows the changes', async () => {
    await runMigrations(target.url, { migrationsFolder: before.folder });
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    const pool = new pg.Pool({ connectionString: target.url, max: 2 });
    try {
      await client.query(`
        INSERT INTO fulfillment.shipments (container_id, account_number, order_number, status_code, ship_date, carrier_name)
        SELECT 'C' || i, 'ACC1', 'SO-' || i, 'SHIPPED', now() - interval '2 days', 'CarrierA' FROM generate_series(1, 5) i;
        INSERT INTO fulfillment.inventory_history (supplier_id, warehouse_code, sub_inventory_code, sku, valid_from,
                                                   qty_on_hand, qty_available_to_sell)
        VALUES ('S1', 'GLW', 'FG', 'SKU1', now() - interval '1 day', 0, 0);`);
      // The old worker's refreshes, then a shipment it never took in.
      for (const view of [
        'shipment_facts',
        'carrier_performance_weekly',
        'order_lifecycle',
        'stock_out_spells',
      ]) {
        await client.query(`REFRESH MATERIALIZED VIEW analytics.${view}`);
      }
      await client.query(`
        INSERT INTO fulfillment.shipments (container_id, account_number, order_number, status_code, ship_date, carrier_name)
        VALUES ('C6', 'ACC1', 'SO-6', 'SHIPPED', now() - interval '1 day', 'CarrierB')`);

      await runMigrations(target.url);
      const kinds = await client.query<{ name: string; kind: string }>(
        `SELECT relname AS name, relkind::text AS kind FROM pg_class
          WHERE relnamespace = 'analytics'::regnamespace AND relname = ANY ($1) ORDER BY 1`,
        [MAINTAINED.map((r) => r.split('.')[1])],
      );
      expect(kinds.rows.map((r) => r.kind)).toEqual(MAINTAINED.map(() => 'r'));
      const copied = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM analytics.shipment_facts',
      );
      expect(copied.rows[0]!.n).toBe(5);
      const asked = await client.query<{ relation: string }>(
        'SELECT relation FROM sync.analytics_changes WHERE key IS NULL ORDER BY relation',
      );
      expect(asked.rows.map((r) => r.relation)).toEqual([...MAINTAINED].sort());

      const first = await refreshAllAnalytics(pool);
      expect(first.map((o) => [o.relation, o.status, o.rebuilt])).toEqual(
        MAINTAINED.map((r) => [r, 'refreshed', true]),
      );
      const facts = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM analytics.shipment_facts',
      );
      expect(facts.rows[0]!.n).toBe(6);
      const spells = await client.query('SELECT sku, out_when_first_seen FROM analytics.stock_out_spells');
      expect(spells.rows).toEqual([{ sku: 'SKU1', out_when_first_seen: true }]);

      await client.query(
        `UPDATE fulfillment.shipments SET carrier_name = 'CarrierC' WHERE container_id = 'C1'`,
      );
      const next = await refreshAllAnalytics(pool);
      expect(next.find((o) => o.relation === 'analytics.shipment_facts')).toMatchObject({
        rebuilt: false,
        changes: 1,
      });
      expect(mismatches(await differencesFromRebuild(pool))).toEqual([]);
    } finally {
      await pool.end();
      await client.end();
    }
  });
});
