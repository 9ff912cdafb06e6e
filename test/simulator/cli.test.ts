import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { type SimulatorCliOptions, simulatorOptionsFromCli } from '../../src/cli/commands/simulator.ts';
import { UsageError } from '../../src/cli/usageError.ts';

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

  it('serves until SIGTERM, printing its URL, token and world', async () => {
    const child = spawn(
      process.execPath,
      [
        'src/cli/bin.mjs',
        'simulator',
        '--port',
        '0',
        '--clock',
        'manual',
        '--history-days',
        '1',
        '--token',
        'cli-token',
      ],
      {
        env: { ...process.env, LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    const deadline = Date.now() + 30_000;
    while (!/world: /.test(out) && Date.now() < deadline && child.exitCode === null)
      await new Promise((r) => setTimeout(r, 50));
    const url = /listening on (http:\/\/[^\s]+)\/api\/v1/.exec(out)?.[1];
    expect(url, out).toBeDefined();
    expect(out).toContain('cli-token');
    const res = await fetch(`${url}/api/v1/Products/Owned/Listing?supplierId=SUP100`, {
      headers: { authorization: 'Bearer cli-token' },
    });
    expect(res.status).toBe(200);
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(out).toContain('simulator stopped');
  });
});
