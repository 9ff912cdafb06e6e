import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invoice } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import type { StreamClient } from '../../src/streams/client.ts';
import { invoicesStream } from '../../src/streams/invoices.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * One delivery rule for every path: whether a change's event is delivered depends on the change,
 * not on the kind of run that found it. A backfill that re-reads an invoice paid since the last
 * incremental run delivers `invoice.paid` exactly as that incremental run would have (stored
 * suppressed, the next incremental run would see no difference and the webhook would never go).
 * Only history from before the scope's initial load read from stays suppressed.
 */

const logger = pino({ level: 'silent' });
const now = new Date('2026-06-10T19:00:00Z');
const HOUR = 3_600_000;

let t: TestDatabase;
let config: Config;
beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

/** A scripted Finances/invoices: the account's invoices whose date lies in the asked day range. */
function upstream(invoices: Invoice[]): StreamClient {
  return {
    listInvoices: async (q: { beginDate: string; endDate: string }) => ({
      records: structuredClone(
        invoices.filter((i) => {
          const day = (i.invoiceDate ?? '').slice(0, 10);
          return day >= q.beginDate && day <= q.endDate;
        }),
      ),
      rejected: [],
    }),
  } as unknown as StreamClient;
}

function invoice(
  invoiceNumber: string,
  accountNumber: string,
  invoiceDate: string,
  balanceDue: number,
): Invoice {
  return { invoiceNumber, accountNumber, invoiceDate, totalInvoiceAmount: 100, balanceDue } as Invoice;
}

/** The day window (UTC bounds are fine: the scripted upstream compares days) around `day`. */
function dayWindow(day: string): Window {
  const start = new Date(`${day}T07:00:00Z`);
  return { kind: 'day', start, end: new Date(start.getTime() + 24 * HOUR - 60_000) };
}

async function eventsOf(scope: string) {
  const res = await t.pool.query<{ type: string; subject_key: string; suppressed: boolean }>(
    `SELECT type, subject_key, suppressed FROM sync.events WHERE scope = $1 ORDER BY seq`,
    [scope],
  );
  return res.rows;
}

/**
 * A scope synced once (its initial load) and once more (live from then on), whose invoice I1 is
 * then paid upstream; `found` is the run that finds the payment.
 */
async function paidAfterInitialLoad(scope: string, found: 'incremental' | 'backfill') {
  // Invoice numbers are global keys: each scope has its own.
  const invoices = [invoice(`${scope}-I1`, scope, '2026-06-01', 100)];
  const eventSink = createEventSink({ timezone: config.timezone, thresholds: config.events });
  const base = {
    pool: t.pool,
    config,
    logger,
    stream: invoicesStream,
    scope: { kind: 'account' as const, id: scope },
    eventSink,
  };
  expect((await runStream({ ...base, client: upstream(invoices), now })).status).toBe('succeeded');
  expect(
    (await runStream({ ...base, client: upstream(invoices), now: new Date(now.getTime() + HOUR) })).status,
  ).toBe('succeeded');
  (invoices[0] as Invoice).balanceDue = 0;
  const later = new Date(now.getTime() + 2 * HOUR);
  const result =
    found === 'backfill'
      ? await runStream({
          ...base,
          client: upstream(invoices),
          now: later,
          mode: 'backfill',
          windows: [dayWindow('2026-06-01')],
        })
      : await runStream({ ...base, client: upstream(invoices), now: later });
  expect(result.status).toBe('succeeded');
  return base;
}

describe('events found by a backfill', () => {
  it('a payment the incremental sync has not seen yet is delivered, exactly as the incremental run would', async () => {
    await paidAfterInitialLoad('ACC-INC', 'incremental');
    await paidAfterInitialLoad('ACC-BF', 'backfill');
    const incremental = await eventsOf('ACC-INC');
    const backfill = await eventsOf('ACC-BF');
    // The same events, whatever the scope's invoice is called.
    const named = (events: typeof backfill) =>
      events.map((e) => ({ ...e, subject_key: e.subject_key.slice(-2) }));
    expect(backfill).toContainEqual({ type: 'invoice.paid', subject_key: 'ACC-BF-I1', suppressed: false });
    expect(backfill).toContainEqual({
      type: 'invoice.balance_changed',
      subject_key: 'ACC-BF-I1',
      suppressed: false,
    });
    expect(named(backfill)).toEqual(named(incremental));
    // The first sight of I1 was the initial load: history, stored but not delivered.
    expect(backfill[0]).toEqual({ type: 'invoice.created', subject_key: 'ACC-BF-I1', suppressed: true });
  });

  it('history older than what the initial load read from stays suppressed', async () => {
    const scope = 'ACC-OLD';
    const base = await paidAfterInitialLoad(scope, 'backfill');
    // Months back, before the initial load started reading: first seen by this backfill.
    const old = [invoice(`${scope}-I0`, scope, '2026-01-05', 100)];
    const result = await runStream({
      ...base,
      client: upstream(old),
      now: new Date(now.getTime() + 3 * HOUR),
      mode: 'backfill',
      windows: [dayWindow('2026-01-05')],
    });
    expect(result).toMatchObject({ status: 'succeeded', inserted: 1 });
    expect((await eventsOf(scope)).filter((e) => e.subject_key === `${scope}-I0`)).toEqual([
      { type: 'invoice.created', subject_key: `${scope}-I0`, suppressed: true },
    ]);
  });
});
