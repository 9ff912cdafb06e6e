import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { refreshAllAnalytics } from '../../src/analytics/refresh.ts';
import { applyReaderRole } from '../../src/db/readerRole.ts';
import { quoteIdent } from '../../src/db/urls.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import { REPO_ROOT } from '../helpers/cli.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { type SimulatedWeek, syncSimulatedWeek } from '../helpers/simulatedWeek.ts';
import { expandGrafanaSql } from './grafanaSql.ts';

/**
 * The business dashboard (deploy/grafana/dashboards/fulfillment-sync-business.json) is portable
 * (its data source is an input and a variable, never a provisioned uid), reads through the
 * provisioned Postgres data source as the reader role, and every one of its SQL queries, run as
 * that role over a simulated week synced as the worker would, answers with rows.
 */

const deploy = (...parts: string[]) => path.join(REPO_ROOT, 'deploy', ...parts);
const POSTGRES_PLUGIN = 'grafana-postgresql-datasource';
// Grafana's own ${...} syntax (an import input and a dashboard variable), not JavaScript templates.
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana syntax
const INPUT = '${DS_WAREHOUSE}';
// biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana syntax
const VARIABLE = '${datasource}';

interface Target {
  datasource?: { type: string; uid: string };
  rawSql: string;
  format: string;
}
interface Panel {
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  targets?: Target[];
}
const dashboard = JSON.parse(
  readFileSync(deploy('grafana/dashboards/fulfillment-sync-business.json'), 'utf8'),
) as {
  uid: string;
  __inputs: { name: string; type: string; pluginId: string }[];
  templating: { list: { name: string; type: string; query: string; current: { value: string } }[] };
  panels: Panel[];
};
const queryPanels = dashboard.panels.filter((p) => p.type !== 'row');

const HOUR = 3_600_000;
const reader = `fs_board_reader_${randomBytes(4).toString('hex')}`;

let week: SimulatedWeek;
let t: TestDatabase;
let sim: RunningSimulator;
let asReader: pg.Client;

beforeAll(async () => {
  // A week ending at the last full hour before the real now, so the board's "last 30 days" holds it.
  week = await syncSimulatedWeek({ seed: 19, days: 7, historyDays: 4, stepHours: 24, winesPerSupplier: 8 });
  ({ t, sim } = week);
  const refreshed = await refreshAllAnalytics(t.pool);
  if (refreshed.some((r) => r.status !== 'refreshed')) throw new Error(JSON.stringify(refreshed));
  await applyReaderRole(t.url, reader);
  await t.pool.query(`ALTER ROLE ${quoteIdent(reader)} LOGIN PASSWORD '${randomBytes(12).toString('hex')}'`);
  const url = new URL(t.url);
  url.username = reader;
  asReader = new pg.Client({ connectionString: url.toString() });
  await asReader.connect();
}, 300_000);

afterAll(async () => {
  await asReader?.end().catch(() => {});
  if (t) {
    await t.pool.query(`DROP OWNED BY ${quoteIdent(reader)}`).catch(() => {});
    await t.pool.query(`DROP ROLE IF EXISTS ${quoteIdent(reader)}`).catch(() => {});
  }
  await week?.close();
});

describe('the business dashboard', () => {
  it('is portable: its Postgres data source is an input and a variable, never a hard-coded uid', () => {
    expect(dashboard.__inputs).toEqual([
      expect.objectContaining({ name: 'DS_WAREHOUSE', type: 'datasource', pluginId: POSTGRES_PLUGIN }),
    ]);
    const variable = dashboard.templating.list.find((v) => v.type === 'datasource');
    expect(variable).toMatchObject({
      name: 'datasource',
      query: POSTGRES_PLUGIN,
      current: { value: INPUT },
    });
    expect(queryPanels.length).toBeGreaterThanOrEqual(7);
    for (const panel of queryPanels) {
      expect(panel.datasource, panel.title).toEqual({ type: POSTGRES_PLUGIN, uid: VARIABLE });
      for (const target of panel.targets ?? []) {
        expect(target.datasource, panel.title).toEqual({ type: POSTGRES_PLUGIN, uid: VARIABLE });
      }
    }
    // The operations board's uid is another; the provisioned data source's uid appears nowhere.
    const provisioned = parse(
      readFileSync(deploy('grafana/provisioning/datasources/warehouse.yml'), 'utf8'),
    ) as {
      datasources: { uid: string; type: string; user: string; jsonData: { database: string } }[];
    };
    const source = provisioned.datasources[0]!;
    expect(JSON.stringify(dashboard)).not.toContain(source.uid);
    expect(dashboard.uid).not.toBe('fulfillment-sync');
  });

  it('is provisioned with a Postgres data source logging in as the reader role that migrate grants', () => {
    const provisioned = parse(
      readFileSync(deploy('grafana/provisioning/datasources/warehouse.yml'), 'utf8'),
    ) as {
      datasources: { type: string; user: string; jsonData: { database: string } }[];
    };
    const compose = parse(readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8'), {
      merge: true,
    }) as {
      services: Record<string, { environment?: Record<string, string>; command?: string[] }>;
    };
    const source = provisioned.datasources[0]!;
    expect(source.type).toBe(POSTGRES_PLUGIN);
    expect(compose.services.migrate?.environment?.FULFILLMENT_READER_ROLE).toBe(source.user);
    expect(source.jsonData.database).toBe('fulfillment');
  });

  it('covers freshness, shipments per day, transit time per carrier, SLA misses, exceptions, return rates per SKU and month, stock-outs, days of cover, open INs and invoice aging', () => {
    const sql = queryPanels.flatMap((p) => (p.targets ?? []).map((target) => target.rawSql)).join('\n');
    for (const relation of [
      'analytics.freshness',
      'analytics.shipment_facts',
      'analytics.carrier_performance_weekly',
      'analytics.return_rate_by_sku',
      'analytics.return_rate_monthly',
      'analytics.stock_out_spells',
      'analytics.days_of_cover',
      'analytics.products',
      'analytics.open_transfers_in',
      'fulfillment.invoice_balances',
    ]) {
      expect(sql, relation).toContain(relation);
    }
    expect(sql).toMatch(/transit_days/);
    expect(sql).toMatch(/shipped_after_sla/);
    expect(sql).toMatch(/aging_bucket/);
  });

  it('counts the SKUs out of stock now from the current stock, as the simulator has it', async () => {
    const panel = queryPanels.find((p) => p.title === 'SKUs out of stock now')!;
    const range = { from: new Date(Date.now() - 30 * 24 * HOUR), to: new Date() };
    const { rows } = await asReader.query(expandGrafanaSql(panel.targets![0]!.rawSql, range));
    // Per supplier, warehouse and SKU, nothing available to sell over its sub-inventories.
    const available = new Map<string, number>();
    for (const [supplier, inventory] of Object.entries(sim.truth().ownedInventory)) {
      for (const r of inventory) {
        const key = `${supplier}|${r.warehouseCode}|${r.sku}`;
        available.set(key, (available.get(key) ?? 0) + (r.qtyAvailableToSell ?? 0));
      }
    }
    const out = [...available.values()].filter((n) => n <= 0).length;
    expect(out).toBeGreaterThan(0);
    expect(Number(rows[0]!['out of stock now'])).toBe(out);
  });

  it('answers every query with rows, run as the reader role over a simulated week (last 30 days)', async () => {
    const range = { from: new Date(Date.now() - 30 * 24 * HOUR), to: new Date() };
    const answers: Record<string, number | string> = {};
    for (const panel of queryPanels) {
      for (const target of panel.targets ?? []) {
        try {
          const { rows } = await asReader.query(expandGrafanaSql(target.rawSql, range));
          answers[panel.title] = rows.length;
        } catch (error) {
          answers[panel.title] = `error: ${(error as Error).message}`;
        }
      }
    }
    const empty = Object.entries(answers).filter(([, rows]) => typeof rows !== 'number' || rows === 0);
    expect(empty).toEqual([]);
  });

  it('has time series queries that return a time column first', () => {
    for (const panel of queryPanels.filter((p) => p.type === 'timeseries')) {
      for (const target of panel.targets ?? []) {
        expect(target.format, panel.title).toBe('time_series');
        expect(target.rawSql, panel.title).toMatch(/^SELECT [^,]+ AS "time"/);
      }
    }
  });
});
