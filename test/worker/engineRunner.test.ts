import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryAfterMsOf } from '../../src/api/errors.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import type { StreamRunResult } from '../../src/sync/types.ts';
import { createEngineRunner, SyncRunFailedError } from '../../src/worker/engineRunner.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { FAIL_FAST, simulatorClient, simulatorConfig } from '../helpers/syncHarness.ts';

/** The engine runner against the simulator: what a failed run tells the worker's job handling. */

const logger = pino({ level: 'silent' });
let t: TestDatabase;
let sim: RunningSimulator;

beforeAll(async () => {
  t = await createTestDatabase();
  sim = await startSimulator({
    seed: 3,
    clock: 'manual',
    start: new Date('2026-06-10T19:00:00Z'),
    volume: { historyDays: 2 },
  });
});
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

describe('engine runner', () => {
  it('a 429 whose Retry-After is too long to wait in-process reaches the worker as retryAfterMs on the thrown error', async () => {
    // 120 s is over the client's in-process ceiling (60 s), so the call fails at once carrying it.
    sim.setFaults({ operations: { 'GET Finances/invoices': { rateLimit: 1 } }, retryAfterSeconds: 120 });
    const config = simulatorConfig(t.url, sim);
    const client = simulatorClient(sim, config, FAIL_FAST);
    const results: StreamRunResult[] = [];
    const engine = createEngineRunner({
      pool: t.pool,
      client,
      config,
      logger,
      now: () => new Date(sim.clock.now()),
      onResult: (r) => results.push(r),
    });
    const account = sim.world.accounts[0]!.number;
    const error = await engine({ stream: 'invoices', scope: account, mode: 'incremental' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SyncRunFailedError);
    expect(retryAfterMsOf(error)).toBe(120_000);
    expect(results[0]?.status).toBe('failed');
    expect(results[0]?.retryAfterMs).toBe(120_000);

    // Any other failure carries no hint, so the worker retries it with its usual backoff.
    sim.setFaults({ operations: { 'GET Finances/invoices': { http5xx: 1 } } });
    const plain = await engine({ stream: 'invoices', scope: account, mode: 'incremental' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(plain).toBeInstanceOf(SyncRunFailedError);
    expect(retryAfterMsOf(plain)).toBeUndefined();
  });
});
