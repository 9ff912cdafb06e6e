import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { quoteIdent } from '../../src/db/urls.ts';
import { prune } from '../../src/retention/prune.ts';
import { replayEvents } from '../../src/webhooks/recovery/replay.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * The pruner never deletes a delivery that a replay (or recover) committed while the pruner was
 * choosing what to delete. The interleaving is made deterministic with two connections: the
 * replay's connection holds an advisory lock that the pruner's scan of sync.events waits for
 * (through a row-level-security policy on the pruner's role, a hook that only this test installs),
 * after the pruner's snapshot is taken and before it has locked the event; the replay commits then,
 * and releases the pruner. No sleep: each side waits for the other's condition. A replay that comes
 * once the pruner holds the event waits for it (a third connection holds the gate) and then leaves
 * the deleted event out instead of failing.
 */

const DEFAULTS = loadConfig({}).retention;
const now = new Date('2026-11-26T12:00:00Z');
const GATE = 424_242;
const role = `fs_pruner_${randomBytes(4).toString('hex')}`;
let t: TestDatabase;
let prunerPool: pg.Pool;
let admin: pg.Client;

beforeAll(async () => {
  t = await createTestDatabase();
  admin = new pg.Client({ connectionString: inject('databaseUrl') });
  await admin.connect();
  await admin.query(`CREATE ROLE ${quoteIdent(role)} LOGIN`);
  await t.pool.query(`GRANT USAGE ON SCHEMA sync TO ${quoteIdent(role)}`);
  await t.pool.query(`GRANT SELECT, UPDATE, DELETE ON ALL TABLES IN SCHEMA sync TO ${quoteIdent(role)}`);
  // The hook: a row named in test_gates waits, when read (kind 'read': the pruner's choice) or
  // deleted (kind 'delete': after its locks), until the gate's advisory lock is free.
  await t.pool.query('CREATE TABLE public.test_gates (id text, kind text)');
  await t.pool.query(`GRANT SELECT ON public.test_gates TO ${quoteIdent(role)}`);
  await t.pool.query(`CREATE FUNCTION public.test_gate(row_id text, row_kind text) RETURNS boolean LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM public.test_gates WHERE id = row_id AND kind = row_kind) THEN
        PERFORM pg_advisory_lock_shared(${GATE});
        PERFORM pg_advisory_unlock_shared(${GATE});
      END IF;
      RETURN true;
    END $$`);
  await t.pool.query('ALTER TABLE sync.events ENABLE ROW LEVEL SECURITY');
  const to = quoteIdent(role);
  await t.pool.query(
    `CREATE POLICY test_read ON sync.events FOR SELECT TO ${to} USING (public.test_gate(id, 'read'))`,
  );
  await t.pool.query(`CREATE POLICY test_lock ON sync.events FOR UPDATE TO ${to} USING (true)`);
  await t.pool.query(
    `CREATE POLICY test_delete ON sync.events FOR DELETE TO ${to} USING (public.test_gate(id, 'delete'))`,
  );
  const url = new URL(t.url);
  url.username = role;
  prunerPool = new pg.Pool({ connectionString: url.toString(), max: 1 });
});
afterAll(async () => {
  await prunerPool?.end();
  await t?.close();
  await admin?.query(`DROP ROLE IF EXISTS ${quoteIdent(role)}`);
  await admin?.end();
});

async function pruneWaitsAtTheGate(): Promise<boolean> {
  const { rows } = await t.pool.query(
    `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND NOT l.granted AND l.objid = $1 AND a.usename = $2`,
    [GATE, role],
  );
  return rows[0].n > 0;
}

/** Whether the session `pid` is waiting for a lock (a row another transaction holds). */
async function waitsForALock(pid: number): Promise<boolean> {
  const { rows } = await t.pool.query(
    `SELECT count(*)::int AS n FROM pg_locks WHERE pid = $1 AND NOT granted`,
    [pid],
  );
  return rows[0].n > 0;
}

/** Two events past retention, dispatched and delivered long ago: both the pruner's to delete. */
async function twoOldEvents(gate: string, target: string): Promise<void> {
  await t.pool.query(
    `INSERT INTO sync.events (id, type, subject_kind, subject_key, occurred_at, detected_at, data, dispatched_at)
     VALUES ($1, 'shipment.delivered', 'shipment', $1, $3, $3, '{}', $3),
            ($2, 'shipment.delivered', 'shipment', $2, $4, $4, '{}', $4)`,
    [gate, target, new Date(now.getTime() - 200 * 86_400_000), new Date(now.getTime() - 199 * 86_400_000)],
  );
}

/** The events left and their delivery states. */
async function eventsAndStates(): Promise<Array<{ id: string; status: string | null }>> {
  const { rows } = await t.pool.query(
    `SELECT e.id, s.status FROM sync.events e
       LEFT JOIN sync.webhook_delivery_states s ON s.event_id = e.id ORDER BY e.id`,
  );
  return rows;
}

describe('the pruner and a replay committed meanwhile', () => {
  it('keeps the event and the pending delivery a replay stored while the pruner was choosing', async () => {
    await t.pool.query(
      `INSERT INTO sync.webhook_endpoints (id, url, secret) VALUES ('ep_a', 'https://a.example', 'whsec_x')`,
    );
    await twoOldEvents('ev_gate', 'ev_target');
    await t.pool.query(`INSERT INTO public.test_gates VALUES ('ev_gate', 'read')`);
    const replay = await t.pool.connect();
    try {
      await replay.query('SELECT pg_advisory_lock($1)', [GATE]);
      const pruning = prune(prunerPool, DEFAULTS, { now });
      await waitFor('the pruner to reach the gate', pruneWaitsAtTheGate);
      // The pruner has its snapshot and has not locked ev_target: the replay lands now.
      const replayed = await replayEvents(replay, { eventId: 'ev_target' }, { endpointId: 'ep_a', now });
      expect(replayed.queued).toBe(1);
      await replay.query('SELECT pg_advisory_unlock($1)', [GATE]);
      await pruning;
    } finally {
      replay.release();
    }
    // ev_gate had nothing pending: it goes. ev_target stays with the replay's pending delivery.
    expect(await eventsAndStates()).toEqual([{ id: 'ev_target', status: 'pending' }]);
  });

  it('a replay that comes once the pruner holds the event waits, then queues nothing for it', async () => {
    await t.pool.query('DELETE FROM sync.events');
    await t.pool.query('DELETE FROM public.test_gates');
    await twoOldEvents('ev_gate2', 'ev_late');
    await t.pool.query(`INSERT INTO public.test_gates VALUES ('ev_gate2', 'delete')`);
    const gate = await t.pool.connect();
    const replay = await t.pool.connect();
    try {
      await gate.query('SELECT pg_advisory_lock($1)', [GATE]);
      const pruning = prune(prunerPool, DEFAULTS, { now });
      await waitFor('the pruner to reach the gate', pruneWaitsAtTheGate);
      // Both events are locked by the pruner now: the replay's insert waits for it.
      const pid = (await replay.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]
        ?.pid as number;
      const replaying = replayEvents(replay, { eventId: 'ev_late' }, { endpointId: 'ep_a', now });
      await waitFor('the replay to wait for the pruner', () => waitsForALock(pid));
      await gate.query('SELECT pg_advisory_unlock($1)', [GATE]);
      await pruning;
      expect((await replaying).queued).toBe(0);
    } finally {
      gate.release();
      replay.release();
    }
    expect(await eventsAndStates()).toEqual([]);
  });
});
