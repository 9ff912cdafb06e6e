import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { collect, spawnSourceCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { type HostileKind, startHostileUpstream } from '../helpers/hostileUpstream.ts';

/**
 * `sync --once` against an upstream whose answers for one account's shipments are hostile: 300 MB,
 * a gzip body inflating to 4 GiB, a body trickled at 10 bytes/s. The process stays small, that
 * window ends with one clear error within two timeouts per split level, and every other stream
 * and scope lands.
 */

const TOKEN = 'hostile-token';
const MiB = 1024 * 1024;
// The CLI reads up to the real now: the simulated world is set there too.
const START = new Date(Math.floor(Date.now() / 60_000) * 60_000);
let sim: RunningSimulator;
let victim: string;
let bystander: string;

beforeAll(async () => {
  sim = await startSimulator({
    seed: 11,
    clock: 'manual',
    start: START,
    tokens: [TOKEN],
    volume: { historyDays: 2 },
  });
  [victim, bystander] = sim.world.accounts.map((a) => a.number) as [string, string];
});
afterAll(() => sim?.close());

/** The peak resident memory of a process so far (Linux VmHWM), in bytes. */
function peakRss(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined; // the process has just exited
  }
}

async function syncAgainst(hostile: HostileKind, args: string[], env: Record<string, string> = {}) {
  const t: TestDatabase = await createTestDatabase();
  const upstream = await startHostileUpstream(
    sim.url,
    (url) => url.pathname.endsWith('/Shipments/Updates') && url.searchParams.get('accountNumber') === victim,
    hostile,
  );
  try {
    const child = spawnSourceCli(['sync', '--once', ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: t.url,
        FULFILLMENT_API_URL: upstream.url,
        FULFILLMENT_API_TOKEN: TOKEN,
        FULFILLMENT_SUPPLIER_IDS: sim.world.suppliers.map((s) => s.id).join(','),
        FULFILLMENT_ACCOUNT_NUMBERS: `${victim},${bystander}`,
        // Two days of shipments, split down to 12 h at the finest: three split levels.
        FULFILLMENT_SYNC_START: new Date(START.getTime() - 2 * 86_400_000).toISOString(),
        FULFILLMENT_STREAMS: JSON.stringify({ shipments: { minWindowSize: 720 } }),
        FULFILLMENT_RATE_LIMIT_RPS: '1000',
        LOG_LEVEL: 'silent',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let peak = 0;
    const sampler = setInterval(() => {
      peak = Math.max(peak, peakRss(child.pid as number) ?? 0);
    }, 50);
    const started = performance.now();
    const result = await collect(child).finally(() => clearInterval(sampler));
    const elapsedMs = performance.now() - started;
    if (process.env.HOSTILE_REPORT)
      console.log(`${hostile.kind}: peak RSS ${Math.round(peak / MiB)} MiB, ${Math.round(elapsedMs)} ms`);
    const shipments = await t.pool.query<{ account_number: string; n: number }>(
      'SELECT account_number, count(*)::int AS n FROM fulfillment.shipments GROUP BY 1',
    );
    const perAccount = Object.fromEntries(shipments.rows.map((r) => [r.account_number, r.n]));
    return { ...result, peak, elapsedMs, perAccount, hostileCalls: [...upstream.hostileCalls], t };
  } finally {
    await upstream.close();
  }
}

// Each scenario moves hundreds of megabytes through a child process: minutes on a machine busy with
// other work, so the ceiling (which only catches a hang) is wider than the default minute.
describe('sync --once against hostile answers', { timeout: 180_000 }, () => {
  it('a 300 MB answer: under 400 MiB, one clear error for that window, every other stream and scope lands', async () => {
    const run = await syncAgainst({ kind: 'huge', bytes: 300 * MiB }, []);
    try {
      expect(run.code).toBe(1);
      const failed = run.stdout.split('\n').filter((line) => /FAILED/.test(line));
      expect(failed).toEqual([
        expect.stringMatching(/^shipments .*FAILED: .*raise FULFILLMENT_MAX_RESPONSE_BYTES/),
      ]);
      expect(failed[0]).toContain(victim);
      expect(run.peak).toBeGreaterThan(0);
      expect(run.peak).toBeLessThan(400 * MiB);
      expect(run.perAccount[bystander]).toBeGreaterThan(0);
      expect(run.perAccount[victim]).toBeUndefined();
      for (const table of ['invoices', 'inventory', 'products']) {
        const rows = await run.t.pool.query(`SELECT count(*)::int AS n FROM fulfillment.${table}`);
        expect(rows.rows[0].n, table).toBeGreaterThan(0);
      }
      // One call per split level (2 days, 1 day, 12 h): a too-large answer is never asked again as it was.
      expect(run.hostileCalls).toHaveLength(3);
      expect(new Set(run.hostileCalls).size).toBe(3);
    } finally {
      await run.t.close();
    }
  });

  it('a gzip body inflating to 4 GiB: under 400 MiB, the same clear error', async () => {
    const run = await syncAgainst({ kind: 'gzip-bomb', bytes: 4096 * MiB }, ['--stream', 'shipments']);
    try {
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^shipments .*FAILED: .*raise FULFILLMENT_MAX_RESPONSE_BYTES/m);
      expect(run.peak).toBeLessThan(400 * MiB);
      expect(run.perAccount[bystander]).toBeGreaterThan(0);
    } finally {
      await run.t.close();
    }
  });

  it('a body trickled at 10 bytes/s: at most two timeouts per split level, then one clear error', async () => {
    const timeoutMs = 1000;
    const run = await syncAgainst({ kind: 'trickle', bytesPerSecond: 10 }, ['--stream', 'shipments'], {
      FULFILLMENT_TIMEOUT_MS: String(timeoutMs),
    });
    try {
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^shipments .*FAILED: .*raise FULFILLMENT_TIMEOUT_MS/m);
      // Two timeouts for each of the three split levels (2 days, 1 day, 12 h), no more.
      expect(run.hostileCalls).toHaveLength(6);
      expect(new Set(run.hostileCalls).size).toBe(3);
      expect(run.perAccount[bystander]).toBeGreaterThan(0);
      expect(run.peak).toBeLessThan(400 * MiB);
    } finally {
      await run.t.close();
    }
  });
});
