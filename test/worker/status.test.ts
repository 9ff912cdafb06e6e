import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SYNC_STREAM_JOB } from '../../jobs/syncStream.ts';
import { syncOnceAction } from '../../src/cli/actions/sync.ts';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';
import { STATUS_WIDTH } from '../../src/cli/status/statusTable.ts';
import { deploymentPrefix, readDeploymentTag } from '../../src/worker/deployment.ts';
import { QUEUE_NAMES } from '../../src/worker/queues.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';

let t: TestDatabase;
const redisUrl = inject('redisUrl');

beforeAll(async () => {
  t = await createTestDatabase();
  // A scope that succeeded an hour ago and failed since, with activity in the last 24 h.
  await t.pool.query(
    `INSERT INTO sync.cursors (stream, scope, last_success_at) VALUES ('shipments', 'A1', now() - interval '1 hour')`,
  );
  await t.pool.query(
    `INSERT INTO sync.runs (stream, scope, started_at, finished_at, status, inserted, updated, events, error) VALUES
       ('shipments', 'A1', now() - interval '61 minutes', now() - interval '1 hour', 'succeeded', 5, 2, 3, null),
       ('shipments', 'A1', now() - interval '2 minutes', now() - interval '1 minute', 'failed', 0, 0, 0, 'upstream 503'),
       ('shipments', 'A1', now() - interval '3 days', now() - interval '3 days', 'succeeded', 100, 0, 9, null)`,
  );
});
afterAll(() => t?.close());

async function status(env: Record<string, string>, args: string[] = []) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['node', 'fulfillment-sync', 'status', ...args],
    createCliContext({
      env: { DATABASE_URL: t.url, LOG_LEVEL: 'silent', ...env },
      print: (l) => out.push(l),
      printError: (l) => err.push(l),
    }),
  );
  return { code, out, err };
}

describe('status', () => {
  it('--json gives per stream and scope: last success, lag, last error, 24 h rows and events, queue depth', async () => {
    const { code, out } = await status(
      { REDIS_URL: redisUrl, FULFILLMENT_QUEUE_PREFIX: 'fs_t_status_empty' },
      ['--json'],
    );
    expect(code).toBe(0);
    const parsed = JSON.parse(out.join('\n'));
    expect(parsed.queues).toBe('available');
    expect(parsed.streams).toHaveLength(1);
    const row = parsed.streams[0];
    expect(row).toMatchObject({
      stream: 'shipments',
      scope: 'A1',
      rows24h: 7,
      events24h: 3,
      lastError: 'upstream 503',
      queueDepth: 0,
    });
    expect(row.lagSeconds).toBeGreaterThanOrEqual(3590);
    expect(row.lagSeconds).toBeLessThan(3700);
    // No cursor position: lag is measured from the last success, and says so.
    expect(row).toMatchObject({ cursor: null, lagFrom: 'lastSuccess' });
  });

  it("counts the jobs queued in this deployment's queues, not those left under the shared prefix", async () => {
    const shared = testRedisPrefix('status-queued');
    const own = deploymentPrefix(shared, await readDeploymentTag(t.pool));
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    try {
      // One job in this deployment's queue, two left in the shared one by an older worker.
      for (const prefix of [own, shared, shared]) {
        const queue = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix });
        await queue.add(SYNC_STREAM_JOB, { stream: 'shipments', scope: 'A1' }, { delay: 3_600_000 });
        await queue.close();
      }
      const { code, out } = await status({ REDIS_URL: redisUrl, FULFILLMENT_QUEUE_PREFIX: shared }, [
        '--json',
      ]);
      expect(code).toBe(0);
      expect(JSON.parse(out.join('\n')).streams[0]).toMatchObject({ stream: 'shipments', queueDepth: 1 });
    } finally {
      await cleanupRedisPrefix(redis, shared);
      redis.disconnect();
    }
  });

  it("says 'unavailable' for the queue when Redis cannot be reached", async () => {
    const { code, out } = await status({ REDIS_URL: 'redis://127.0.0.1:1' });
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^stream\s+scope\s+cursor\s+success\s+lag/);
    expect(out[1]).toMatch(/^shipments\s+A1\s+-\s+(59|60)m ago\s+.*\?$/);
    expect(out).toContain('queue: ? = Redis unavailable');
    expect(out.find((l) => l.includes('upstream 503'))).toMatch(
      /^ {2}shipments A1 failed \d+s ago: upstream 503$/,
    );
    for (const line of out) expect(line.length, line).toBeLessThanOrEqual(STATUS_WIDTH);
  });

  it('shows the cursor position, and measures lag from it for a minute-window stream', async () => {
    // Succeeded 5 minutes ago, but its windows only reach 3 hours back: it is 3 hours behind.
    const cursor = await t.pool.query<{ position_at: Date }>(
      `INSERT INTO sync.cursors (stream, scope, position_at, last_success_at)
       VALUES ('shipments', 'A9', date_trunc('second', now()) - interval '3 hours', now() - interval '5 minutes')
       RETURNING position_at`,
    );
    const { code, out } = await status({ REDIS_URL: 'redis://127.0.0.1:1' }, ['--json']);
    expect(code).toBe(0);
    const row = JSON.parse(out.join('\n')).streams.find(
      (s: { stream: string; scope: string }) => s.stream === 'shipments' && s.scope === 'A9',
    );
    expect(row).toMatchObject({ cursor: cursor.rows[0]!.position_at.toISOString(), lagFrom: 'cursor' });
    expect(row.lagSeconds).toBeGreaterThanOrEqual(10_790);
    expect(row.lagSeconds).toBeLessThan(10_900);
    const table = await status({ REDIS_URL: 'redis://127.0.0.1:1' });
    expect(table.out[0]).toMatch(/^stream\s+scope\s+cursor\s+success\s+lag/);
    const line = table.out.find((l) => l.startsWith('shipments') && l.includes(' A9 '));
    const position = cursor.rows[0]!.position_at.toISOString();
    expect(line).toContain(`${position.slice(5, 10)} ${position.slice(11, 16)}`);
    expect(line).toMatch(/\s3h\s/);
  });

  it('shows pending and quarantined detail calls per stream and scope', async () => {
    await t.pool.query(
      `INSERT INTO sync.detail_requests (stream, scope, record_key, reason, attempts, quarantined_at) VALUES
         ('shipments', 'A1', 'O1', 'shipment', 0, null),
         ('shipments', 'A1', 'O2', 'shipment', 3, null),
         ('shipments', 'A1', 'O3', 'shipment', 10, now())`,
    );
    const { out } = await status({ REDIS_URL: 'redis://127.0.0.1:1' }, ['--json']);
    const row = JSON.parse(out.join('\n')).streams.find((s: { stream: string }) => s.stream === 'shipments');
    expect(row).toMatchObject({ detailsPending: 2, detailsQuarantined: 1 });
    const table = await status({ REDIS_URL: 'redis://127.0.0.1:1' });
    expect(table.out.find((l) => l.startsWith('shipments'))).toMatch(/\s2\+1q\s/);
    await t.pool.query('DELETE FROM sync.detail_requests');
  });

  it('right after a successful sync, a day-window stream is as fresh as that run (not hours behind since midnight)', async () => {
    const env = { DATABASE_URL: t.url, LOG_LEVEL: 'silent', FULFILLMENT_ACCOUNT_NUMBERS: 'ACC100' };
    const logger = pino({ level: 'silent' });
    const synced = await syncOnceAction(
      { once: true, stream: 'returns' },
      { env, out: { log: () => undefined, error: () => undefined }, logger },
    );
    expect(synced).toBe(0);
    const { out } = await status({ REDIS_URL: 'redis://127.0.0.1:1' }, ['--json']);
    const row = JSON.parse(out.join('\n')).streams.find(
      (s: { stream: string; scope: string }) => s.stream === 'returns' && s.scope === 'ACC100',
    );
    // Its cursor is today's local midnight: the day it read up to the moment it ran.
    const cursorDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(
      new Date(row.cursor),
    );
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Los_Angeles' }).format(new Date());
    expect(cursorDay).toBe(today);
    expect(row.lagFrom).toBe('coverage');
    expect(row.lagSeconds).toBeLessThan(120);
  });

  it('a day-window stream whose cursor is days back lags from the end of that day', async () => {
    const res = await t.pool.query<{ day_end: Date }>(
      `INSERT INTO sync.cursors (stream, scope, position_at, last_success_at)
       VALUES ('transfers_in', 'S1',
               (date_trunc('day', now() AT TIME ZONE 'America/Los_Angeles') - interval '3 days') AT TIME ZONE 'America/Los_Angeles',
               now() - interval '5 minutes')
       RETURNING ((date_trunc('day', now() AT TIME ZONE 'America/Los_Angeles') - interval '2 days') AT TIME ZONE 'America/Los_Angeles') AS day_end`,
    );
    const { out } = await status({ REDIS_URL: 'redis://127.0.0.1:1' }, ['--json']);
    const row = JSON.parse(out.join('\n')).streams.find(
      (s: { stream: string }) => s.stream === 'transfers_in',
    );
    const expected = (Date.now() - res.rows[0]!.day_end.getTime()) / 1000;
    expect(row.lagFrom).toBe('coverage');
    expect(Math.abs(row.lagSeconds - expected)).toBeLessThan(30);
  });

  it("shows each stream and scope's calls per cycle: what its last run cost upstream", async () => {
    await t.pool.query(
      `UPDATE sync.cursors SET last_run = '{"calls": 7, "windows": 2, "at": "2026-11-23T10:00:00Z"}' WHERE stream = 'shipments'`,
    );
    const { out } = await status({ REDIS_URL: 'redis://127.0.0.1:1' }, ['--json']);
    const rows = JSON.parse(out.join('\n')).streams as Array<{
      stream: string;
      callsPerCycle: number | null;
    }>;
    expect(rows.find((r) => r.stream === 'shipments')?.callsPerCycle).toBe(7);
    expect(rows.find((r) => r.stream === 'transfers_in')?.callsPerCycle).toBeNull();
    const table = await status({ REDIS_URL: 'redis://127.0.0.1:1' });
    expect(table.out[0]).toMatch(/\scalls\s/);
    expect(table.out.join(' ')).toContain('calls: per cycle;');
  });

  it("shows per stream its target, the interval the scheduler uses, the freshness it reaches, its lag and a poll's cost", async () => {
    const env = {
      REDIS_URL: 'redis://127.0.0.1:1',
      FULFILLMENT_ACCOUNT_NUMBERS: 'A1',
      FULFILLMENT_SUPPLIER_IDS: 'S1',
    };
    const { out } = await status(env, ['--json']);
    const { polling, streams } = JSON.parse(out.join('\n'));
    const lagOf = (stream: string) =>
      Math.max(
        ...streams
          .filter((r: { stream: string }) => r.stream === stream)
          .map((r: { lagSeconds: number }) => r.lagSeconds),
      );
    // One pair fits the default budget: the targets' intervals, unstretched.
    expect(polling).toMatchObject({ budgetCallsPerSecond: 5, stretch: 1 });
    const of = (stream: string) => polling.streams.find((s: { stream: string }) => s.stream === stream);
    expect(of('shipments')).toMatchObject({
      rule: 'target',
      targetSeconds: 60,
      intervalSeconds: 45,
      reachesSeconds: 60,
      callsPerPoll: 1,
      scopes: 1,
      observedLagSeconds: lagOf('shipments'),
    });
    expect(of('inventory_activity')).toMatchObject({
      rule: 'cadence',
      targetSeconds: null,
      intervalSeconds: 3600,
    });
    expect(of('orders')).toMatchObject({ rule: 'on-demand', intervalSeconds: null, callsPerPoll: 0 });

    const table = (await status(env)).out;
    const start = table.findIndex((l) => l.startsWith('polling ('));
    expect(table[start]).toMatch(/^polling \(0\.\d\d of 5\.00 calls\/s of the polling budget\):$/);
    expect(table[start + 1]).toMatch(/^ {2}stream +target +interval +reaches +lag +calls\/poll +scopes$/);
    const section = table.slice(start);
    expect(section.find((l) => l.startsWith('  shipments '))).toMatch(
      /^ {2}shipments +60s +45s +60s +\S+ +1 +1$/,
    );
    expect(section.find((l) => l.startsWith('  inventory_activity '))).toMatch(
      / cadence +60m +60m +- +2 +1$/,
    );
    expect(section.find((l) => l.startsWith('  orders '))).toMatch(/ on demand /);
    for (const line of table) expect(line.length, line).toBeLessThanOrEqual(STATUS_WIDTH);
  });
});
