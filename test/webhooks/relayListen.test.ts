import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import type { DeliveryJob } from '../../src/webhooks/delivery/deliver.ts';
import { startRelayLoop } from '../../src/webhooks/delivery/relay/relayLoop.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { createTestDatabase, LOCAL_RECEIVERS, testEvent } from './harness.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe('relay loop', () => {
  it('re-opens its LISTEN connection when Postgres drops it, and relays what was committed meanwhile', async () => {
    await addEndpoint(database.pool, { url: 'http://127.0.0.1:9/hook' }, LOCAL_RECEIVERS);
    const woken: DeliveryJob[] = [];
    const errors: string[] = [];
    const application = `relay-listen-${process.pid}`;
    const loop = await startRelayLoop({
      pool: database.pool,
      enqueue: async (jobs) => void woken.push(...jobs),
      // Polling far too slow to matter: only notifications wake the relay in this test.
      intervalMs: 600_000,
      onError: (error) => errors.push(error.message),
      connectListener: async () => {
        const client = new pg.Client({ connectionString: database.url, application_name: application });
        await client.connect();
        return client;
      },
    });
    try {
      const first = testEvent();
      await writeEvents(database.pool, [first], { stream: null, scope: null, suppressed: false });
      await waitFor('the first event to be relayed', () => woken.some((j) => j.eventId === first.id));

      // What a Postgres restart does to the connection: the server ends it.
      const killed = await database.pool.query(
        'SELECT pg_terminate_backend(pid) AS ok FROM pg_stat_activity WHERE application_name = $1',
        [application],
      );
      expect(killed.rows).toEqual([{ ok: true }]);
      const second = testEvent();
      await writeEvents(database.pool, [second], { stream: null, scope: null, suppressed: false });
      await waitFor(
        'the event committed after the drop to be relayed',
        () => woken.some((j) => j.eventId === second.id),
        15_000,
      );
      expect(errors.some((e) => /LISTEN connection lost/.test(e))).toBe(true);
      const listening = await database.pool.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
        [application],
      );
      expect(listening.rows[0].n).toBe(1);
    } finally {
      await loop.stop();
    }
  });
});
