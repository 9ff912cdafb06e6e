import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * The BI views (src/db/schema/views.ts) answer their questions from rows as the streams store
 * them. Times are relative to now() because ages and 24-hour windows are measured at query time.
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

async function rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.pool.query(text, params)).rows as T[];
}

const ago = (interval: string) => `now() - interval '${interval}'`;

describe('fulfillment.shipment_status', () => {
  it('shows each shipment with its latest scan and its order, and null order fields until the detail is synced', async () => {
    await t.pool.query(`
      INSERT INTO fulfillment.shipments (container_id, account_number, order_number, status_code, ship_date)
      VALUES ('C1', 'ACC1', 'SO-1', 'IN_TRANSIT', ${ago('2 days')}), ('C2', 'ACC1', 'SO-2', 'SHIPPED', ${ago('1 day')});
      INSERT INTO fulfillment.shipment_events (container_id, event_key, event_time, city, description)
      VALUES ('C1', 'k1', ${ago('40 hours')}, 'Napa', 'Picked up'), ('C1', 'k2', ${ago('20 hours')}, 'Reno', 'In transit');
      INSERT INTO fulfillment.orders (account_number, order_number, warehouse_code, order_status_code, creation_date,
        is_onsite_purchase, is_line_haul, is_editable, is_cancellable, is_back_ordered, has_inventory_hold)
      VALUES ('ACC1', 'SO-1', 'GLW', 'IN_TRANSIT', ${ago('3 days')}, false, false, false, false, false, false);`);
    const found = await rows<Record<string, unknown>>(
      `SELECT container_id, status_code, last_scan_city, last_scan_description, order_status_code, warehouse_code
         FROM fulfillment.shipment_status ORDER BY container_id`,
    );
    expect(found).toEqual([
      {
        container_id: 'C1',
        status_code: 'IN_TRANSIT',
        last_scan_city: 'Reno',
        last_scan_description: 'In transit',
        order_status_code: 'IN_TRANSIT',
        warehouse_code: 'GLW',
      },
      {
        container_id: 'C2',
        status_code: 'SHIPPED',
        last_scan_city: null,
        last_scan_description: null,
        order_status_code: null,
        warehouse_code: null,
      },
    ]);
  });
});

describe('fulfillment.open_returns', () => {
  it('lists returns that are not RESOLVED, with their age in whole days and their line totals', async () => {
    await t.pool.query(`
      INSERT INTO fulfillment.returns (ship_return_id, account_number, processing_status_code, return_date)
      VALUES (1, 'ACC1', 'NEW', ${ago('3 days 12 hours')}), (2, 'ACC1', 'RESOLVED', ${ago('9 days')}),
             (3, 'ACC1', NULL, NULL);
      INSERT INTO fulfillment.return_lines (ship_return_id, line_number, component_number, quantity_returned, quantity_damaged)
      VALUES (1, 1, 0, 4, 1), (1, 2, 0, 2, 0);`);
    const found = await rows<Record<string, unknown>>(
      `SELECT ship_return_id, age_days, line_count, quantity_returned, quantity_damaged
         FROM fulfillment.open_returns ORDER BY ship_return_id`,
    );
    expect(found).toEqual([
      { ship_return_id: '1', age_days: 3, line_count: 2, quantity_returned: 6, quantity_damaged: 1 },
      { ship_return_id: '3', age_days: null, line_count: 0, quantity_returned: null, quantity_damaged: null },
    ]);
  });
});

describe('fulfillment.inventory_current', () => {
  it('tells when quantities last changed, since when a SKU is out of stock and how often it ran out in 30 days', async () => {
    // SKU1: 10 -> 0 (20 days ago) -> 5 (10 days ago) -> 0 (5 days ago, current). SKU2: in stock.
    await t.pool.query(`
      INSERT INTO fulfillment.inventory (supplier_id, warehouse_code, sub_inventory_code, sku, qty_available_to_sell)
      VALUES ('S1', 'GLW', '', 'SKU1', 0), ('S1', 'GLW', '', 'SKU2', 7);
      INSERT INTO fulfillment.inventory_history
        (supplier_id, warehouse_code, sub_inventory_code, sku, valid_from, valid_to, qty_available_to_sell)
      VALUES ('S1', 'GLW', '', 'SKU1', ${ago('40 days')}, ${ago('20 days')}, 10),
             ('S1', 'GLW', '', 'SKU1', ${ago('20 days')}, ${ago('10 days')}, 0),
             ('S1', 'GLW', '', 'SKU1', ${ago('10 days')}, ${ago('5 days')}, 5),
             ('S1', 'GLW', '', 'SKU1', ${ago('5 days')}, NULL, 0),
             ('S1', 'GLW', '', 'SKU2', ${ago('2 days')}, NULL, 7);`);
    const found = await rows<Record<string, unknown>>(
      `SELECT sku, is_out_of_stock, stock_outs_30d,
              round(extract(epoch FROM now() - last_changed_at) / 86400) AS changed_days_ago,
              round(extract(epoch FROM now() - out_of_stock_since) / 86400) AS out_days_ago
         FROM fulfillment.inventory_current ORDER BY sku`,
    );
    expect(found).toEqual([
      { sku: 'SKU1', is_out_of_stock: true, stock_outs_30d: 2, changed_days_ago: '5', out_days_ago: '5' },
      { sku: 'SKU2', is_out_of_stock: false, stock_outs_30d: 0, changed_days_ago: '2', out_days_ago: null },
    ]);
  });
});

describe('fulfillment.inventory_current on a fresh install', () => {
  it('counts no stock-out for a row first seen at zero: it did not run out in front of us', async () => {
    await t.pool.query(`
      INSERT INTO fulfillment.inventory (supplier_id, warehouse_code, sub_inventory_code, sku, qty_available_to_sell)
      VALUES ('S2', 'GLW', 'QA', 'SKU9', 0);
      INSERT INTO fulfillment.inventory_history
        (supplier_id, warehouse_code, sub_inventory_code, sku, valid_from, valid_to, qty_available_to_sell)
      VALUES ('S2', 'GLW', 'QA', 'SKU9', ${ago('3 days')}, ${ago('1 day')}, 0),
             ('S2', 'GLW', 'QA', 'SKU9', ${ago('1 day')}, NULL, 0);`);
    const found = await rows<Record<string, unknown>>(
      `SELECT is_out_of_stock, stock_outs_30d FROM fulfillment.inventory_current WHERE supplier_id = 'S2'`,
    );
    expect(found).toEqual([{ is_out_of_stock: true, stock_outs_30d: 0 }]);
  });
});

describe('fulfillment.invoice_balances', () => {
  it('marks invoices with a balance due as open and buckets them by age', async () => {
    await t.pool.query(`
      INSERT INTO fulfillment.invoices (invoice_number, total_invoice_amount, balance_due, invoice_date)
      VALUES ('I-OPEN', 100, 40.5, ${ago('45 days')}), ('I-PAID', 80, 0, ${ago('100 days')}),
             ('I-OLD', 10, 10, ${ago('120 days')});`);
    const found = await rows<Record<string, unknown>>(
      'SELECT invoice_number, is_open, age_days, aging_bucket FROM fulfillment.invoice_balances ORDER BY invoice_number',
    );
    expect(found).toEqual([
      { invoice_number: 'I-OLD', is_open: true, age_days: 120, aging_bucket: '90+' },
      { invoice_number: 'I-OPEN', is_open: true, age_days: 45, aging_bucket: '31-60' },
      { invoice_number: 'I-PAID', is_open: false, age_days: 100, aging_bucket: null },
    ]);
  });
});

describe('fulfillment.shipments_per_day', () => {
  it('counts shipments and units per Pacific ship day, warehouse (from the order) and account', async () => {
    // 2026-03-02T07:30Z is 23:30 on March 1 in Los Angeles.
    await t.pool.query(`
      INSERT INTO fulfillment.shipments (container_id, account_number, order_number, status_code, ship_date)
      VALUES ('D1', 'ACC9', 'SO-9', 'DELIVERED', '2026-03-02T07:30:00Z'),
             ('D2', 'ACC9', 'SO-9', 'EXCEPTION', '2026-03-01T18:00:00Z'),
             ('D3', 'ACC9', 'SO-X', 'SHIPPED', '2026-03-02T09:00:00Z');
      INSERT INTO fulfillment.shipment_lines (container_id, line_number, quantity)
      VALUES ('D1', 1, 6), ('D1', 2, 6), ('D2', 1, 3);
      INSERT INTO fulfillment.orders (account_number, order_number, warehouse_code, warehouse_name, creation_date,
        is_onsite_purchase, is_line_haul, is_editable, is_cancellable, is_back_ordered, has_inventory_hold)
      VALUES ('ACC9', 'SO-9', 'PSO', 'Paso Robles', '2026-03-01T00:00:00Z', false, false, false, false, false, false);`);
    const found = await rows<Record<string, unknown>>(
      `SELECT ship_day::text, warehouse_code, warehouse_name, shipments, units, delivered, exceptions, returned
         FROM fulfillment.shipments_per_day WHERE account_number = 'ACC9' ORDER BY ship_day, warehouse_code`,
    );
    expect(found).toEqual([
      {
        ship_day: '2026-03-01',
        warehouse_code: 'PSO',
        warehouse_name: 'Paso Robles',
        shipments: 2,
        units: 15,
        delivered: 1,
        exceptions: 1,
        returned: 0,
      },
      {
        ship_day: '2026-03-02',
        warehouse_code: null,
        warehouse_name: null,
        shipments: 1,
        units: 0,
        delivered: 0,
        exceptions: 0,
        returned: 0,
      },
    ]);
  });
});

describe('fulfillment.sync_health', () => {
  it('reports per stream and scope the last success, lag, a failure since then and the last 24 hours of runs', async () => {
    await t.pool.query(`
      INSERT INTO sync.cursors (stream, scope, last_success_at) VALUES ('invoices', 'ACC1', ${ago('2 hours')});
      INSERT INTO sync.runs (stream, scope, started_at, finished_at, status, inserted, updated, rejected, events, api_calls, error)
      VALUES ('invoices', 'ACC1', ${ago('30 hours')}, ${ago('30 hours')}, 'succeeded', 500, 0, 0, 9, 1, NULL),
             ('invoices', 'ACC1', ${ago('2 hours 1 minute')}, ${ago('2 hours')}, 'partial', 3, 2, 1, 4, 2, NULL),
             ('invoices', 'ACC1', ${ago('1 hour')}, ${ago('59 minutes')}, 'failed', 0, 0, 0, 0, 1, 'upstream 503'),
             ('returns', 'ACC1', ${ago('10 minutes')}, ${ago('9 minutes')}, 'failed', 0, 0, 0, 0, 1, 'first run failed');`);
    const found = await rows<Record<string, unknown>>(
      `SELECT stream, round(lag_seconds / 3600.0) AS lag_hours, last_run_status, last_error, is_failing,
              runs_24h, failed_runs_24h, rows_24h, rejected_24h, events_24h, api_calls_24h
         FROM fulfillment.sync_health WHERE scope = 'ACC1' ORDER BY stream`,
    );
    expect(found).toEqual([
      {
        stream: 'invoices',
        lag_hours: '2',
        last_run_status: 'failed',
        last_error: 'upstream 503',
        is_failing: true,
        runs_24h: 2,
        failed_runs_24h: 1,
        rows_24h: '5',
        rejected_24h: '1',
        events_24h: '4',
        api_calls_24h: '3',
      },
      {
        stream: 'returns',
        lag_hours: null,
        last_run_status: 'failed',
        last_error: 'first run failed',
        is_failing: true,
        runs_24h: 1,
        failed_runs_24h: 1,
        rows_24h: '0',
        rejected_24h: '0',
        events_24h: '0',
        api_calls_24h: '1',
      },
    ]);
  });
});
