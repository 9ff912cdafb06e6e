import { Queue, Worker } from 'bullmq';
import { afterAll, describe, expect, inject, it } from 'vitest';
import {
  createFetchOrderDetailsProcessor,
  FETCH_ORDER_DETAILS_JOB,
  type FetchOrderDetailsPayload,
  fetchOrderDetailsJobOptions,
} from '../../jobs/fetchOrderDetails.ts';
import { createWorkerRedis } from '../../src/worker/connections.ts';
import { waitFor } from '../helpers/waitFor.ts';

/** A failed order-detail job gives its id back, so a later change can enqueue the order again. */

const prefix = `fs_t_fix_odj_${Math.random().toString(36).slice(2, 10)}`;
const redis = createWorkerRedis(inject('redisUrl'));
const queue = new Queue('order-details-fix', { connection: redis, prefix });
const closers: Array<() => Promise<unknown>> = [];

afterAll(async () => {
  for (const close of closers) await close();
  await queue.obliterate({ force: true });
  await queue.close();
  redis.disconnect();
});

describe('order-detail jobs', () => {
  it('can be enqueued again for the same order once the previous job failed for good', async () => {
    const payload: FetchOrderDetailsPayload = { accountNumber: 'ACC1', orderNumber: 'O1' };
    const fetched: string[] = [];
    const processor = createFetchOrderDetailsProcessor(async (p) => {
      fetched.push(p.orderNumber);
      if (fetched.length === 1) throw new Error('upstream refused');
    });
    const worker = new Worker(queue.name, (job) => processor(job.data), {
      connection: createWorkerRedis(inject('redisUrl')),
      prefix,
    });
    closers.push(() => worker.close());
    let failed = 0;
    let completed = 0;
    worker.on('failed', () => failed++);
    worker.on('completed', () => completed++);
    // One attempt keeps the test fast; the retention under test is the job's own option.
    const options = { ...fetchOrderDetailsJobOptions(payload), attempts: 1 };

    await queue.add(FETCH_ORDER_DETAILS_JOB, payload, options);
    await waitFor('the first job to fail', () => failed === 1);
    await queue.add(FETCH_ORDER_DETAILS_JOB, payload, options);
    await waitFor('the order to be fetched again', () => completed === 1);
    expect(fetched).toEqual(['O1', 'O1']);
    // And a completed job gives its id back too.
    expect(await queue.getJob(options.jobId as string)).toBeUndefined();
  });
});
