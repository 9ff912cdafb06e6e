import { eq } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_RELATIONS, ALL_TABLES } from '../../src/db/allTables.ts';
import { collectComments } from '../../src/db/comments/render.ts';
import { inventoryHistory, invoices, runs, webhookEndpoints } from '../../src/db/schema/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

async function rows<T>(text: string, params: unknown[] = []): Promise<T[]> {
  return (await t.pool.query(text, params)).rows as T[];
}

/** The primary-key columns of a table, in key order. */
async function primaryKeyOf(schema: string, table: string): Promise<string[]> {
  const found = await rows<{ column_name: string }>(
    `select a.attname as column_name
       from pg_index i
       join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = format('%I.%I', $1::text, $2::text)::regclass and i.indisprimary
      order by array_position(i.indkey::int2[], a.attnum)`,
    [schema, table],
  );
  return found.map((r) => r.column_name);
}

describe('the migrated warehouse', () => {
  it('has every table of the schema, with its columns and natural key (NOT NULL)', async () => {
    expect(ALL_TABLES.length).toBeGreaterThanOrEqual(29);
    for (const table of ALL_TABLES) {
      const config = getTableConfig(table);
      const schema = config.schema ?? 'public';
      const columns = await rows<{ column_name: string; is_nullable: string }>(
        'select column_name, is_nullable from information_schema.columns where table_schema = $1 and table_name = $2',
        [schema, config.name],
      );
      expect(columns.map((c) => c.column_name).sort(), `${schema}.${config.name}`).toEqual(
        config.columns.map((c) => c.name).sort(),
      );
      const wantedKey =
        config.primaryKeys[0]?.columns.map((c) => c.name) ??
        config.columns.filter((c) => c.primary).map((c) => c.name);
      const key = await primaryKeyOf(schema, config.name);
      expect(key, `${schema}.${config.name} key`).toEqual(wantedKey);
      for (const name of key) {
        expect(columns.find((c) => c.column_name === name)?.is_nullable).toBe('NO');
      }
    }
  });

  it('keys the contract tables as docs/warehouse.md says', async () => {
    expect(await primaryKeyOf('fulfillment', 'shipments')).toEqual(['container_id']);
    expect(await primaryKeyOf('fulfillment', 'shipment_events')).toEqual(['container_id', 'event_key']);
    expect(await primaryKeyOf('fulfillment', 'return_lines')).toEqual([
      'ship_return_id',
      'line_number',
      'component_number',
    ]);
    expect(await primaryKeyOf('fulfillment', 'inventory')).toEqual([
      'supplier_id',
      'warehouse_code',
      'sub_inventory_code',
      'sku',
    ]);
    expect(await primaryKeyOf('fulfillment', 'inventory_activity')).toEqual([
      'supplier_id',
      'activity_date',
      'warehouse_code',
      'sub_inventory_code',
      'sku',
    ]);
    expect(await primaryKeyOf('fulfillment', 'invoices')).toEqual(['invoice_number']);
    expect(await primaryKeyOf('fulfillment', 'orders')).toEqual(['account_number', 'order_number']);
    expect(await primaryKeyOf('sync', 'cursors')).toEqual(['stream', 'scope']);
  });

  it('carries a COMMENT ON every table, view and column, as described in src/db/comments', async () => {
    const found = await rows<{ target: string; text: string | null }>(
      `select format('%s %I.%I', case c.relkind when 'v' then 'VIEW' when 'm' then 'MATERIALIZED VIEW' else 'TABLE' end, n.nspname, c.relname) as target,
              obj_description(c.oid, 'pg_class') as text
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('fulfillment', 'fulfillment_masked', 'analytics', 'sync') and c.relkind in ('r', 'v', 'm')
       union all
       select format('COLUMN %I.%I.%I', n.nspname, c.relname, a.attname), col_description(c.oid, a.attnum)
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
        where n.nspname in ('fulfillment', 'fulfillment_masked', 'analytics', 'sync') and c.relkind in ('r', 'v', 'm')`,
    );
    // format('%I') leaves lower-case names unquoted; the migration quotes them all.
    const normalize = (target: string) => target.replace(/(^\w+ )|"/g, '$1');
    const inDb = new Map(found.map((r) => [normalize(r.target), r.text]));
    expect(found.filter((r) => !r.text).map((r) => r.target)).toEqual([]);
    for (const comment of collectComments(ALL_RELATIONS).comments) {
      expect(inDb.get(normalize(comment.target)), comment.target).toBe(comment.text);
    }
  });

  it('round-trips numbers and instants exactly through numeric and timestamptz', async () => {
    const invoice = {
      invoiceNumber: 'INV-1',
      accountNumber: 'ACC1',
      classInvoiceAmount: 0.1,
      totalInvoiceAmount: 1234567.891,
      paymentsReceived: 1e-7,
      balanceDue: 0,
      invoiceDate: new Date('2026-03-08T09:30:00.123Z'),
      raw: { invoiceNumber: 'INV-1', extra: [1, 'two'] },
    };
    await t.db.insert(invoices).values(invoice);
    const [back] = await t.db.select().from(invoices).where(eq(invoices.invoiceNumber, 'INV-1'));
    expect(back).toMatchObject(invoice);
    expect(back?.syncedAt).toBeInstanceOf(Date);
  });

  it('enforces the run status values and one open inventory version per key', async () => {
    const [run] = await t.db.insert(runs).values({ stream: 'shipments', scope: 'A1' }).returning();
    expect(run).toMatchObject({ status: 'running', mode: 'incremental', fetched: 0 });
    expect(typeof run?.id).toBe('number');
    await expect(t.pool.query("update sync.runs set status = 'bogus'")).rejects.toThrow(/runs_status_check/);

    const key = { supplierId: 'S1', warehouseCode: 'GLW', subInventoryCode: '', sku: 'SKU1' };
    await t.db
      .insert(inventoryHistory)
      .values({ ...key, validFrom: new Date('2026-01-01T00:00:00Z'), qtyOnHand: 5 });
    await expect(
      t.db
        .insert(inventoryHistory)
        .values({ ...key, validFrom: new Date('2026-01-02T00:00:00Z'), qtyOnHand: 6 }),
    ).rejects.toThrow();
  });

  it('gives webhook endpoints an ep_ id and an empty event-type filter by default', async () => {
    const [endpoint] = await t.db
      .insert(webhookEndpoints)
      .values({ url: 'https://example.test/hook', secret: 'whsec_dGVzdA==' })
      .returning();
    expect(endpoint?.id).toMatch(/^ep_[0-9a-f]{32}$/);
    expect(endpoint?.eventTypes).toEqual([]);
    expect(endpoint?.enabled).toBe(true);
  });
});
