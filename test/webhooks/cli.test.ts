import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooksAdd, webhooksList, webhooksRemove, webhooksReplay } from '../../src/cli/actions/webhooks.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { tailEvents } from '../../src/events/tail.ts';
import type { DerivedEvent } from '../../src/events/types.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { createTestDatabase, testEvent } from './harness.ts';

/** Production's policy, with a resolver that answers a public address (no DNS needed in tests). */
const PUBLIC_DNS = {
  policy: { allowPrivateTargets: false },
  resolve: async () => [{ address: '93.184.215.14', family: 4 }],
};

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

describe('webhooks commands', () => {
  it('adds (secret shown once), lists masked, replays and removes', async () => {
    const lines: string[] = [];
    await webhooksAdd(
      database.pool,
      'https://example.com/hook',
      ['shipment.delivered'],
      (l) => lines.push(l),
      PUBLIC_DNS,
    );
    const id = lines.find((l) => l.startsWith('id: '))?.slice(4) ?? '';
    const secret = lines.find((l) => l.startsWith('secret: '))?.slice(8) ?? '';
    expect(secret).toMatch(/^whsec_/);
    const listed: string[] = [];
    await webhooksList(database.pool, (l) => listed.push(l));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toContain(id);
    expect(listed[0]).not.toContain(secret);
    expect(listed[0]).toContain(`whsec_****${secret.slice(-4)}`);

    const event = testEvent();
    await writeEvents(database.pool, [event], { stream: null, scope: null, suppressed: true });
    const printed: string[] = [];
    await webhooksReplay(database.pool, { eventId: event.id }, undefined, (l) => printed.push(l));
    expect(printed).toEqual(['queued 1 delivery(ies) of 1 event(s); a running worker sends them now.']);
    const stored = await database.pool.query(
      'SELECT endpoint_id, status FROM sync.webhook_delivery_states WHERE event_id = $1',
      [event.id],
    );
    expect(stored.rows).toEqual([{ endpoint_id: id, status: 'pending' }]);

    const out: string[] = [];
    expect(await webhooksRemove(database.pool, id, (l) => out.push(l))).toBe(true);
    expect(await webhooksRemove(database.pool, id, (l) => out.push(l))).toBe(false);
  });

  it('rejects non-http URLs and unknown event types', async () => {
    await expect(webhooksAdd(database.pool, 'file:///etc/passwd', [], () => {}, PUBLIC_DNS)).rejects.toThrow(
      /http or https/,
    );
    await expect(
      webhooksAdd(database.pool, 'https://example.com', ['nope'], () => {}, PUBLIC_DNS),
    ).rejects.toThrow(/Unknown event type/);
  });
});

describe('events tail', () => {
  async function tailWhile(
    listen: boolean,
    type: string | undefined,
    work: (seen: DerivedEvent[]) => Promise<void>,
  ) {
    const seen: DerivedEvent[] = [];
    const stop = new AbortController();
    let ready = false;
    const done = tailEvents({
      pool: database.pool,
      connectListener: listen
        ? async () => {
            const client = new pg.Client({ connectionString: database.url });
            await client.connect();
            return client;
          }
        : undefined,
      type,
      // With LISTEN, polling is slow so the notification must be what wakes the reader.
      pollMs: listen ? 60_000 : 50,
      signal: stop.signal,
      onEvent: (event) => seen.push(event),
      onReady: () => {
        ready = true;
      },
    });
    try {
      await waitFor('the tail to listen', () => ready);
      await work(seen);
    } finally {
      stop.abort();
      await done;
    }
  }

  it('prints new events once, woken by LISTEN, filtered by type', async () => {
    const old = testEvent();
    await writeEvents(database.pool, [old], { stream: null, scope: null, suppressed: false });
    await tailWhile(true, 'invoice.paid', async (seen) => {
      const wanted = testEvent({ type: 'invoice.paid' });
      await writeEvents(database.pool, [testEvent(), wanted, wanted], {
        stream: null,
        scope: null,
        suppressed: false,
      });
      await waitFor('an event to be tailed', () => seen.length > 0);
      expect(seen.map((e) => e.id)).toEqual([wanted.id]);
      expect(seen[0]).toMatchObject({ type: 'invoice.paid', subject: wanted.subject, data: wanted.data });
    });
  });

  it('falls back to polling without LISTEN', async () => {
    await tailWhile(false, undefined, async (seen) => {
      const event = testEvent();
      await writeEvents(database.pool, [event], { stream: null, scope: null, suppressed: false });
      await waitFor('the event to be tailed', () => seen.some((e) => e.id === event.id));
    });
  });
});
