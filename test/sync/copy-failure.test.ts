import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invoice } from '../../src/api/records/index.ts';
import { invoicesStream } from '../../src/streams/invoices.ts';
import { shapeOf } from '../../src/sync/columns.ts';
import { commitWindow } from '../../src/sync/commitWindow.ts';
import { DEFAULT_DETAIL_RETRY } from '../../src/sync/detailRequests.ts';
import { withContentHash } from '../../src/sync/incoming.ts';
import type { PreparedWindow } from '../../src/sync/prepareWindow.ts';
import type { RecordChange, Row, RowContext } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * An error on the write path must close what it opened. JSON.stringify throws on a record nested
 * 8,000 levels deep; thrown while COPY lines are being built, it would leave COPY open on the
 * connection, the ROLLBACK queued behind it would wait forever, and the sync would hang. Whether
 * the bad row comes first or after enough good rows that COPY data already reached the server,
 * the commit must reject at once, leave no session idle in a transaction or inside a COPY, keep
 * the pool usable, and write nothing.
 */

const POOL_SIZE = 2;
const scope = { kind: 'account' as const, id: 'ACCC' };
const now = new Date('2026-06-10T12:00:00Z');
const ctx: RowContext = { scope, timezone: 'UTC', now };
const shape = shapeOf(invoicesStream.entity.table, invoicesStream.entity.key);

let t: TestDatabase;
beforeAll(async () => {
  ({ t } = await startSyncDatabase({ max: POOL_SIZE }));
});
afterAll(() => t?.close());

function invoice(i: number): Invoice {
  return {
    invoiceNumber: `INV-${i}`,
    accountNumber: scope.id,
    invoiceDate: '2026-06-01',
    balanceDue: i,
    memo: 'x'.repeat(200),
  } as unknown as Invoice;
}

/** A row whose `raw` JSON.stringify cannot serialise (it overflows the stack). */
function unserialisableRow(): Row {
  const deep: Record<string, unknown> = {};
  let level = deep;
  for (let i = 0; i < 8000; i++) {
    const next: Record<string, unknown> = {};
    level.member = next;
    level = next;
  }
  const row = invoicesStream.entity.row(invoice(-1), ctx);
  return { ...row, raw: deep };
}

function prepared(rows: Row[]): PreparedWindow<Invoice> {
  const changes: RecordChange<Invoice>[] = rows.map((row) => ({
    kind: 'inserted',
    record: undefined,
    row,
    previousRow: undefined,
  }));
  return {
    changes,
    keys: new Set(),
    children: [],
    unchanged: 0,
    fetchedByKey: 0,
    rejections: [],
    quarantined: 0,
    repaired: 0,
    served: [],
    detailFailures: [],
    childrenWithheld: [],
    apiCalls: 0,
    vanishSkipped: false,
    warnings: [],
  };
}

function commit(rows: Row[]) {
  return commitWindow({
    pool: t.pool,
    stream: invoicesStream as never,
    scope,
    window: { kind: 'day', start: now, end: now },
    prepared: prepared(rows) as PreparedWindow<unknown>,
    lease: undefined,
    now,
    eventSink: undefined,
    eventPolicy: { initialLoad: false, historyBefore: undefined, deliverHistory: false },
    cursor: { advanceTo: now, at: now, initialLoad: undefined, loadedFrom: undefined },
    detailRetry: DEFAULT_DETAIL_RETRY,
    run: {
      stream: invoicesStream.name,
      scope,
      mode: 'incremental',
      leaseFence: null,
      windowStart: now,
      windowEnd: now,
      window: 'copy failure',
      startedAt: now,
      error: undefined,
      fetched: rows.length,
      inserted: rows.length,
      updated: 0,
      unchanged: 0,
      rejected: 0,
      apiCalls: 0,
    },
  });
}

/** Rejects with 'hung' when `promise` has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`hung: not settled within ${ms} ms`)), ms);
  });
  return Promise.race([promise, hung]).finally(() => clearTimeout(timer));
}

/** Other sessions of this database still in a transaction or inside a COPY. */
async function leftOpen() {
  const res = await t.pool.query(
    `SELECT state, left(query, 60) AS query FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid()
        AND (state LIKE 'idle in transaction%' OR (state = 'active' AND query ILIKE 'COPY%'))`,
  );
  return res.rows;
}

async function counts() {
  const res = await t.pool.query(
    `SELECT (SELECT count(*)::int FROM fulfillment.invoices) AS invoices,
            (SELECT count(*)::int FROM sync.runs) AS runs,
            (SELECT count(*)::int FROM sync.cursors) AS cursors`,
  );
  return res.rows[0];
}

describe('a row that cannot be serialised while COPY lines are built', () => {
  for (const before of [0, 20_000]) {
    it(`after ${before} good rows: the commit rejects promptly and leaves nothing open or written`, async () => {
      const good = Array.from({ length: before }, (_, i) =>
        withContentHash(invoicesStream.entity.row(invoice(i), ctx), shape),
      );
      await expect(within(commit([...good, unserialisableRow()]), 10_000)).rejects.toThrow(
        /Maximum call stack size exceeded/,
      );
      expect(await leftOpen()).toEqual([]);
      // Every client of the pool still answers (a connection stuck in COPY would never).
      const answers = await within(
        Promise.all(Array.from({ length: POOL_SIZE * 2 }, () => t.pool.query('SELECT 1 AS one'))),
        5_000,
      );
      expect(answers.map((a) => a.rows[0].one)).toEqual(Array(POOL_SIZE * 2).fill(1));
      expect(await counts()).toEqual({ invoices: 0, runs: 0, cursors: 0 });
    });
  }

  it('the same rows without the bad one are written (the test rows themselves are fine)', async () => {
    const good = Array.from({ length: 3 }, (_, i) =>
      withContentHash(invoicesStream.entity.row(invoice(i), ctx), shape),
    );
    await commit(good);
    expect(await counts()).toMatchObject({ invoices: 3, runs: 1 });
  });
});
