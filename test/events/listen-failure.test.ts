import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tailEvents } from '../../src/events/tail.ts';
import { startRelayLoop } from '../../src/webhooks/delivery/relay/relayLoop.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * A LISTEN that fails after its connection opened releases that connection: `events tail` falls
 * back to polling and the relay loop retries with backoff, neither leaving a connection behind
 * (the relay would leave one per attempt, until Postgres' max_connections).
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

/**
 * A real connection on which LISTEN fails: it sits in an aborted transaction, so Postgres refuses
 * every statement ("current transaction is aborted").
 */
function connectBroken(application: string) {
  return async () => {
    const client = new pg.Client({ connectionString: t.url, application_name: application });
    await client.connect();
    await client.query('BEGIN');
    await client.query('SELECT 1/0').catch(() => undefined);
    return client;
  };
}

async function connectionsOf(application: string): Promise<number> {
  const res = await t.pool.query(
    'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
    [application],
  );
  return res.rows[0].n;
}

describe('a LISTEN that fails after connecting', () => {
  it('events tail: reports it, polls instead, and closes the connection', async () => {
    const application = `tail-listen-${process.pid}`;
    const errors: string[] = [];
    const abort = new AbortController();
    let ready = false;
    const tail = tailEvents({
      pool: t.pool,
      connectListener: connectBroken(application),
      onEvent: () => undefined,
      onListenError: (error) => errors.push(error.message),
      onReady: () => {
        ready = true;
      },
      signal: abort.signal,
    });
    try {
      await waitFor('the tail to start polling', () => ready);
      expect(errors.join()).toMatch(/current transaction is aborted/);
      await waitFor(
        'the failed LISTEN connection to be closed',
        async () => (await connectionsOf(application)) === 0,
        3_000,
      );
    } finally {
      abort.abort();
      await tail;
    }
  });

  it('relay loop: closes each failed attempt before retrying', async () => {
    const application = `relay-listen-fail-${process.pid}`;
    const errors: string[] = [];
    const loop = await startRelayLoop({
      pool: t.pool,
      intervalMs: 600_000,
      maxListenBackoffMs: 100,
      onError: (error) => errors.push(error.message),
      connectListener: connectBroken(application),
    });
    try {
      await waitFor(
        'three failed LISTEN attempts',
        () => errors.filter((e) => /LISTEN .* failed/.test(e)).length >= 3,
      );
      await waitFor(
        'the failed LISTEN connections to be closed',
        async () => (await connectionsOf(application)) === 0,
        3_000,
      );
    } finally {
      await loop.stop();
    }
  });
});
