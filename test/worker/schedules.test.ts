import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
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
    // One pending job per scheduler, not three.
    const pending = await queue.getJobCounts('delayed', 'waiting', 'prioritized');
    expect(pending.delayed! + pending.waiting! + pending.prioritized!).toBe(desired.length);
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
