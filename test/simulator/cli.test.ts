import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createFulfillmentClient, staticTokenProvider } from '../../src/api/index.ts';
import { type SimulatorCliOptions, simulatorOptionsFromCli } from '../../src/cli/actions/simulator.ts';
import { UsageError } from '../../src/cli/usageError.ts';
import type { PoisonReport } from '../../src/simulator/index.ts';
import { spawnSourceCli } from '../helpers/cli.ts';

const BASE: SimulatorCliOptions = {
  port: '0',
  host: '127.0.0.1',
  seed: '42',
  token: ['t'],
  clientId: 'c',
  clientSecret: 's',
  clock: 'manual',
  timezone: 'America/Los_Angeles',
  historyDays: '2',
  records: '0',
  fault: [],
  rowCapMode: 'error',
};

describe('fulfillment-sync simulator', () => {
  it('turns flags into options and refuses bad ones with a usage error', () => {
    const o = simulatorOptionsFromCli({
      ...BASE,
      fault: ['http5xx=0.1', 'timeout=0.05'],
      faultSeed: '9',
      rowCap: '100',
      records: '1000000',
      start: '2026-11-01T10:00:00Z',
    });
    expect(o.faults).toMatchObject({ rates: { http5xx: 0.1, timeout: 0.05 }, seed: 9 });
    expect(o.volume?.shipments).toBe(1_000_000);
    expect(o.rowCap).toBe(100);
    expect(o.start?.toISOString()).toBe('2026-11-01T10:00:00.000Z');
    expect(() => simulatorOptionsFromCli({ ...BASE, fault: ['nope=0.1'] })).toThrow(UsageError);
    expect(() => simulatorOptionsFromCli({ ...BASE, faultRate: '2' })).toThrow(UsageError);
    expect(() => simulatorOptionsFromCli({ ...BASE, seed: 'x' })).toThrow(UsageError);
    expect(() => simulatorOptionsFromCli({ ...BASE, start: 'yesterday' })).toThrow(UsageError);
  });

  it('runs the poison scenario with its rate limit, and refuses the rate without it', () => {
    expect(simulatorOptionsFromCli(BASE).scenario).toBeUndefined();
    expect(simulatorOptionsFromCli({ ...BASE, scenario: 'poison' })).toMatchObject({
      scenario: 'poison',
      poison: {},
    });
    expect(
      simulatorOptionsFromCli({ ...BASE, scenario: 'poison', poisonRateLimit: '0.1', retryAfter: '2' }),
    ).toMatchObject({ scenario: 'poison', poison: { rateLimitRate: 0.1, retryAfterSeconds: 2 } });
    expect(() => simulatorOptionsFromCli({ ...BASE, poisonRateLimit: '0.1' })).toThrow(
      '--poison-rate-limit needs --scenario poison',
    );
    expect(
      simulatorOptionsFromCli({ ...BASE, scenario: 'poison', poisonKinds: 'nul, detail-503' }).poison,
    ).toEqual({ kinds: ['nul', 'detail-503'] });
    expect(() =>
      simulatorOptionsFromCli({ ...BASE, scenario: 'poison', poisonKinds: 'nul,arsenic' }),
    ).toThrow('unknown poison kind "arsenic"');
    expect(() => simulatorOptionsFromCli({ ...BASE, scenario: 'poison', poisonRateLimit: '3' })).toThrow(
      UsageError,
    );
  });

  it('serves until SIGTERM, printing the exact FULFILLMENT_API_URL and token to paste, and its world', async () => {
    const served = await serve(['--token', 'cli-token']);
    const token = /^ {2}FULFILLMENT_API_TOKEN=(\S+)$/m.exec(served.out)?.[1];
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(token).toBe('cli-token');
    expect(served.out).toMatch(/^ {2}FULFILLMENT_SUPPLIER_IDS=SUP100,SUP200$/m);
    expect(served.out).toMatch(/^ {2}FULFILLMENT_ACCOUNT_NUMBERS=ACC100,ACC200$/m);
    // Pasted as printed, the client reaches the API (no doubled /api/v1).
    const client = createFulfillmentClient({
      baseUrl: served.url,
      tokenProvider: staticTokenProvider(token as string),
      timeoutMs: 10_000,
      rateLimitRps: 0,
    });
    const { records } = await client.listOwnedProducts({ supplierId: 'SUP100' });
    expect(records.length).toBeGreaterThan(0);
    expect((await fetch(`${served.url}/_sim/poison`)).status).toBe(404);
    expect(await served.stop()).toBe(0);
    expect(served.out).toContain('simulator stopped');
  });

  it('serves the poison world with --scenario poison', async () => {
    const served = await serve(['--scenario', 'poison', '--poison-rate-limit', '0']);
    expect(served.out).toContain('GET /_sim/poison');
    const report = (await (await fetch(`${served.url}/_sim/poison`)).json()) as PoisonReport;
    expect(report).toMatchObject({
      scenario: 'poison',
      rateLimit: { rate: 0, message: 'Too many requests' },
    });
    const missing = report.records.find((r) => r.stream === 'products' && r.kind === 'missing-detail');
    const res = await fetch(`${served.url}/api/v1/Products/${missing?.key}`, {
      headers: { authorization: 'Bearer sandbox-token' },
    });
    expect([res.status, await res.json()]).toEqual([
      404,
      { isSuccess: false, message: 'Product not found', payload: null },
    ]);
    expect(await served.stop()).toBe(0);
  });
});

/** Starts `simulator` (from source) with a manual clock, one day of history and `args`; resolves once it listens. */
async function serve(args: string[]): Promise<{ url: string; out: string; stop: () => Promise<number> }> {
  const child = spawnSourceCli(
    ['simulator', '--port', '0', '--clock', 'manual', '--history-days', '1', ...args],
    { env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const served = { url: '', out: '', stop: async () => 0 };
  child.stdout?.on('data', (d: Buffer) => {
    served.out += d.toString();
  });
  served.stop = async () => {
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    return code as number;
  };
  const deadline = Date.now() + 30_000;
  while (!/world: /.test(served.out) && Date.now() < deadline && child.exitCode === null)
    await new Promise((r) => setTimeout(r, 50));
  // The value to paste, as the simulator prints it.
  const url = /^ {2}FULFILLMENT_API_URL=(\S+)$/m.exec(served.out)?.[1];
  if (!url) {
    await served.stop();
    throw new Error(`the simulator did not start: ${served.out}`);
  }
  served.url = url;
  return served;
}
