import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { STREAM_DEFAULTS } from '../../src/config/streamDefaults.ts';
import { pollPlan } from '../../src/polling/pollPlan.ts';
import { QUEUE_NAMES } from '../../src/worker/queues.ts';
import { desiredSchedules, registerSchedules, scheduleId } from '../../src/worker/schedules.ts';
import { deletePrefix, testConfig, uniquePrefix } from './fixtures.ts';

const redisUrl = inject('redisUrl');
const prefix = uniquePrefix('schedules');
const opened: Array<{ close: () => Promise<unknown> } | { disconnect: () => void }> = [];

function open() {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix });
  opened.push(queue, redis);
  return { redis, queue };
}

afterAll(async () => {
  for (const o of opened) {
    if ('close' in o) await o.close();
    else o.disconnect();
  }
  await deletePrefix(redisUrl, prefix);
});

describe('desiredSchedules', () => {
  it('makes one schedule per stream and scope with a cadence, none for on-demand orders', () => {
    const config = testConfig({ supplierIds: ['S1', 'S2'], accountNumbers: ['A1'] });
    const desired = desiredSchedules(config);
    // 5 supplier streams x 2 suppliers + 3 scheduled account streams x 1 account.
    expect(desired).toHaveLength(13);
    expect(desired.some((d) => d.stream === 'orders')).toBe(false);
    expect(desired.find((d) => d.id === scheduleId('shipments', 'A1'))?.everyMs).toBe(5 * 60_000);
  });

  it('polls at the intervals the plan derives from the freshness targets by default', () => {
    const config = testConfig({ supplierIds: ['S1'], accountNumbers: ['A1'] });
    const plan = pollPlan({ ...config, streams: STREAM_DEFAULTS });
    const desired = desiredSchedules({ ...config, streams: STREAM_DEFAULTS }, plan);
    for (const schedule of desired) {
      const poll = plan.streams.find((s) => s.stream === schedule.stream)!;
      expect(schedule.everyMs).toBe(poll.intervalSeconds! * 1000);
    }
    // A minute's target: a poll every 45 s, so a change is out within the minute.
    expect(desired.find((d) => d.id === scheduleId('shipments', 'A1'))?.everyMs).toBe(45_000);
    expect(desired.find((d) => d.id === scheduleId('inventory_activity', 'S1'))?.everyMs).toBe(3_600_000);
  });
});

describe('registerSchedules', () => {
  it('registers each schedule once when three workers start together', async () => {
    const config = testConfig();
    const desired = desiredSchedules(config);
    const workers = [open(), open(), open()];
    const results = await Promise.all(
      workers.map(({ queue, redis }) => registerSchedules(queue, desired, { redis })),
    );
    // Exactly one registration created them; the others found them in place.
    expect(results.map((r) => r.created.length).sort()).toEqual([0, 0, desired.length]);
    const queue = workers[0]!.queue;
    const schedulers = await queue.getJobSchedulers(0, -1);
    expect(schedulers.map((s) => s.key).sort()).toEqual(desired.map((d) => d.id).sort());
    // Per scheduler one next run at its phase and one first run now, not three of each.
    const pending = await queue.getJobCounts('delayed', 'waiting', 'prioritized');
    expect(pending.delayed).toBe(desired.length);
    expect(pending.waiting! + pending.prioritized!).toBe(desired.length);
    const firstRuns = await queue.getJobs(['waiting', 'prioritized']);
    expect(firstRuns.map((j) => `sync:${j.data.stream}:${j.data.scope}`).sort()).toEqual(
      desired.map((d) => d.id).sort(),
    );
  });

  it('runs each scheduler at its own phase, so they do not all come due at once', async () => {
    const config = testConfig();
    const desired = desiredSchedules(config);
    const { queue } = open();
    const next = await queue.getJobs(['delayed']);
    const dueAt = new Map(next.map((j) => [j.repeatJobKey, j.timestamp + j.delay]));
    for (const schedule of desired) {
      // Each next run sits at the scheduler's phase within its period.
      expect(((dueAt.get(schedule.id) ?? Number.NaN) % schedule.everyMs) - schedule.offsetMs).toBe(0);
    }
    const daily = desired.filter((d) => d.everyMs === 1440 * 60_000).map((d) => dueAt.get(d.id));
    expect(daily.length).toBeGreaterThan(1);
    expect(new Set(daily).size).toBe(daily.length);
  });

  it('re-creates at its phase a scheduler registered before phases existed, without an extra run', async () => {
    const config = testConfig();
    const desired = desiredSchedules(config);
    const { queue, redis } = open();
    const target = desired.find((d) => d.everyMs === 1440 * 60_000)!;
    await queue.removeJobScheduler(target.id);
    await queue.upsertJobScheduler(target.id, { every: target.everyMs }, { name: 'syncStream', data: {} });
    const waitingBefore = await queue.getWaitingCount();
    const result = await registerSchedules(queue, desired, { redis });
    expect(result.updated).toEqual([target.id]);
    expect(Number((await queue.getJobScheduler(target.id))?.offset)).toBe(target.offsetMs);
    // The old scheduler's immediate job may still wait; no first run is added for a known scheduler.
    expect(await queue.getWaitingCount()).toBe(waitingBefore);
  });

  it('a redeploy with a changed cadence updates the scheduler in place', async () => {
    const base = testConfig();
    const changed = testConfig({
      streams: { ...base.streams, shipments: { ...base.streams.shipments, cadenceMinutes: 2 } },
    });
    const { queue, redis } = open();
    const result = await registerSchedules(queue, desiredSchedules(changed), { redis });
    expect(result.updated).toEqual([scheduleId('shipments', 'A1')]);
    expect(result.created).toEqual([]);
    const scheduler = await queue.getJobScheduler(scheduleId('shipments', 'A1'));
    expect(Number(scheduler?.every)).toBe(2 * 60_000);
    expect(await queue.getJobSchedulersCount()).toBe(desiredSchedules(changed).length);
  });

  it("removes a scope's schedules when the scope is no longer configured", async () => {
    const config = testConfig({ supplierIds: ['S1'] });
    const { queue, redis } = open();
    const result = await registerSchedules(queue, desiredSchedules(config), { redis });
    expect(result.removed.sort()).toEqual(
      ['products', 'inventory', 'inventory_activity', 'transfers_in', 'transfers_out']
        .map((s) => `sync:${s}:S2`)
        .sort(),
    );
    const keys = (await queue.getJobSchedulers(0, -1)).map((s) => s.key);
    expect(keys.some((k) => k.endsWith(':S2'))).toBe(false);
    expect(keys).toHaveLength(desiredSchedules(config).length);
  });
});
