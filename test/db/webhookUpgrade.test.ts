import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runMigrations } from '../../src/db/migrate.ts';
import { freshDatabaseUrl } from '../helpers/db.ts';
import { migrationsBefore } from '../helpers/migrationsBefore.ts';

/**
 * Upgrading a database from before endpoint management: the stored `webhooks test` pings (type
 * webhook.test, ids evt_ping_...) and their delivery rows are deleted, and endpoints that were
 * disabled get who disabled them and an open disabled period, so `webhooks recover` and the
 * disabled-by metric know them too.
 */

const target = freshDatabaseUrl();
const before = migrationsBefore('webhook_endpoint_management');
afterAll(async () => {
  before.remove();
  await target.drop();
});

describe('upgrading to endpoint management', () => {
  it('deletes stored pings and records who disabled the endpoints that were disabled', async () => {
    await runMigrations(target.url, { migrationsFolder: before.folder });
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      await client.query(`
        INSERT INTO sync.webhook_endpoints (id, url, secret, enabled, disabled_reason, updated_at) VALUES
          ('ep_on', 'https://a.example/h', 'whsec_a', true, NULL, now()),
          ('ep_hand', 'https://b.example/h', 'whsec_b', false, 'by hand', '2026-03-01T10:00:00Z'),
          ('ep_gone', 'https://c.example/h', 'whsec_c', false, 'receiver answered 410 Gone', '2026-03-02T10:00:00Z');
        INSERT INTO sync.events (id, type, subject_kind, subject_key, occurred_at, detected_at, data, suppressed) VALUES
          ('evt_ping_0123', 'webhook.test', 'endpoint', 'ep_on', now(), now(), '{}', true),
          ('evt_real', 'shipment.created', 'shipment', 'C1', now(), now(), '{}', false);
        INSERT INTO sync.webhook_deliveries (endpoint_id, event_id, series, attempt, status) VALUES
          ('ep_on', 'evt_ping_0123', 'test_0123', 1, 'succeeded'),
          ('ep_on', 'evt_real', '', 1, 'succeeded');
        INSERT INTO sync.webhook_delivery_states (endpoint_id, event_id, series, status) VALUES
          ('ep_on', 'evt_ping_0123', 'test_0123', 'succeeded');
      `);
      const result = await runMigrations(target.url);
      expect(result.applied).toBeGreaterThanOrEqual(2);

      const events = await client.query('SELECT id FROM sync.events ORDER BY id');
      expect(events.rows.map((r) => r.id)).toEqual(['evt_real']);
      const attempts = await client.query('SELECT event_id FROM sync.webhook_deliveries');
      expect(attempts.rows.map((r) => r.event_id)).toEqual(['evt_real']);
      const states = await client.query('SELECT count(*)::int AS n FROM sync.webhook_delivery_states');
      expect(states.rows[0].n).toBe(0);

      const endpoints = await client.query(
        'SELECT id, disabled_by, metadata, headers FROM sync.webhook_endpoints ORDER BY id',
      );
      expect(endpoints.rows).toEqual([
        { id: 'ep_gone', disabled_by: 'failure', metadata: {}, headers: {} },
        { id: 'ep_hand', disabled_by: 'operator', metadata: {}, headers: {} },
        { id: 'ep_on', disabled_by: null, metadata: {}, headers: {} },
      ]);
      const periods = await client.query(
        'SELECT endpoint_id, disabled_by, disabled_at, enabled_at FROM sync.webhook_endpoint_disablements ORDER BY endpoint_id',
      );
      expect(periods.rows).toEqual([
        {
          endpoint_id: 'ep_gone',
          disabled_by: 'failure',
          disabled_at: new Date('2026-03-02T10:00:00Z'),
          enabled_at: null,
        },
        {
          endpoint_id: 'ep_hand',
          disabled_by: 'operator',
          disabled_at: new Date('2026-03-01T10:00:00Z'),
          enabled_at: null,
        },
      ]);
    } finally {
      await client.end();
    }
  });
});
