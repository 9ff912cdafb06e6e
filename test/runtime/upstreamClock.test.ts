import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/configError.ts';
import { simulatorClock } from '../../src/runtime/upstreamClock.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { linesOf, runSourceCli } from '../helpers/cli.ts';

/**
 * FULFILLMENT_CLOCK=simulator: a sync reads "now" from the simulator it syncs, so a manual clock
 * moved by `POST /_sim/clock` moves the sync's windows too. Pointed at something that is no
 * simulator, a command stops with one line naming the setting.
 */

let sim: RunningSimulator;
const notASimulator = createServer((_req, res) => {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end('{"message":"no such route"}');
});
let notASimulatorUrl = '';

beforeAll(async () => {
  sim = await startSimulator({
    seed: 42,
    clock: 'manual',
    start: new Date('2026-11-15T12:00:00Z'),
    volume: { historyDays: 1 },
  });
  await new Promise<void>((resolve) => notASimulator.listen(0, '127.0.0.1', resolve));
  notASimulatorUrl = `http://127.0.0.1:${(notASimulator.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sim?.close();
  await new Promise((resolve) => notASimulator.close(resolve));
});

describe('the simulator clock', () => {
  it('reads the simulated now, and follows the clock when it is moved', async () => {
    const now = simulatorClock(`${sim.url}/`);
    expect((await now()).toISOString()).toBe('2026-11-15T12:00:00.000Z');
    const moved = await fetch(`${sim.url}/_sim/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advanceMinutes: 180 }),
    });
    expect(moved.status).toBe(200);
    expect((await now()).toISOString()).toBe('2026-11-15T15:00:00.000Z');
  });

  it('names the setting when the URL is no simulator', async () => {
    const failure = await simulatorClock(notASimulatorUrl)().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as ConfigError).problems).toEqual([
      expect.stringMatching(/^FULFILLMENT_CLOCK: .*\/_sim\/world, which answered HTTP 404 without a "now"/),
    ]);
  });

  it('stops `sync --once` with that one line and exit 2, before any sync', async () => {
    const result = await runSourceCli(['sync', '--once'], {
      env: {
        PATH: process.env.PATH ?? '',
        FULFILLMENT_API_URL: notASimulatorUrl,
        FULFILLMENT_API_TOKEN: 'a-token',
        FULFILLMENT_SUPPLIER_IDS: 'SUP100',
        FULFILLMENT_CLOCK: 'simulator',
        // Nothing may be reached: the clock is read before the database or Redis.
        DATABASE_URL: 'postgres://127.0.0.1:1/none',
        REDIS_URL: 'redis://127.0.0.1:1',
        LOG_LEVEL: 'silent',
      },
    });
    expect(result.code).toBe(2);
    expect(linesOf(result.stderr)).toEqual([expect.stringMatching(/^FULFILLMENT_CLOCK: /)]);
    expect(result.stdout).toBe('');
  });
});
