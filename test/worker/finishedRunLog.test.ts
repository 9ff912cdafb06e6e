import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_STREAM_JOB, syncStreamJobOptions } from '../../jobs/syncStream.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import { startWorkerHarness, type WorkerHarness } from './workerHarness.ts';

let harness: WorkerHarness | undefined;
let sim: RunningSimulator;
let queue: Queue;

beforeAll(async () => {
  harness = await startWorkerHarness('runlog', { seed: 11, historyDays: 2 });
  ({ sim, queue } = harness);
}, 120_000);
afterAll(() => harness?.close());

describe('the worker at LOG_LEVEL=info', () => {
  it('logs one line per finished job: stream, scope, status, rows, events and duration', async () => {
    const account = sim.world.accounts[0]!.number;
    const worker = harness!.spawn(harness!.env({ ...harness!.onDemand(), LOG_LEVEL: 'info' }));
    await worker.waitForLog(/worker started/);
    const payload = { stream: 'shipments' as const, scope: account };
    await queue.add(SYNC_STREAM_JOB, payload, syncStreamJobOptions(payload));
    await worker.waitForLog(/"stream":"shipments".*"durationMs"/);

    const lines = worker.lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.stream === 'shipments' && l.durationMs !== undefined);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatchObject({ level: 30, scope: account, status: 'succeeded' });
    expect(line.rows).toBe(Number(line.inserted) + Number(line.updated));
    expect(Number(line.rows)).toBeGreaterThan(0);
    expect(line.events).toEqual(expect.any(Number));
    expect(line.durationMs).toEqual(expect.any(Number));
    expect(line.msg).toMatch(
      new RegExp(`^shipments ${account} succeeded: \\d+ rows changed, \\d+ events, \\d+ ms$`),
    );

    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  });
});
