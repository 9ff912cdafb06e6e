import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createFetchProgressDisplay, formatEta } from '../../src/cli/fetchProgress.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { CLI_ENTRY, collect, runSourceCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';

/**
 * A first `sync --once` fetches one order detail per call at FULFILLMENT_ORDER_DETAIL_RPS (minutes
 * against a real account): it shows how far it has got on stderr, a bar with done/total and rate on
 * a terminal, a plain line every few seconds otherwise. stdout keeps only the summary.
 */

/** A stream that records what is written to it, as a terminal (isTTY) or a pipe would be. */
function sink(isTTY: boolean) {
  let text = '';
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    }),
    { isTTY, columns: 120 },
  );
  return { stream, text: () => text };
}

describe('the order-detail progress display', () => {
  it('without a terminal: one line every 5 s with done/total, rate and ETA, and the last count at the end', () => {
    let now = 0;
    const out = sink(false);
    const display = createFetchProgressDisplay('orders ACC100', { stream: out.stream, now: () => now });
    for (let done = 1; done <= 60; done += 1) {
      now = done * 200; // 5 calls a second
      display.update({ done, total: 60 });
    }
    display.stop();
    expect(out.text().split('\n').filter(Boolean)).toEqual([
      'orders ACC100: 25/60 order details, 5.0/s, ETA 7s',
      'orders ACC100: 50/60 order details, 5.0/s, ETA 2s',
      'orders ACC100: 60/60 order details, 5.0/s, ETA 0s',
    ]);
  });

  it('stays silent for a fetch shorter than one interval', () => {
    let now = 0;
    const out = sink(false);
    const display = createFetchProgressDisplay('orders ACC100', { stream: out.stream, now: () => now });
    now = 1000;
    display.update({ done: 3, total: 3 });
    display.stop();
    expect(out.text()).toBe('');
  });

  it('on a terminal: a bar with done/total and the rate', () => {
    let now = 0;
    const out = sink(true);
    const display = createFetchProgressDisplay('orders ACC100', { stream: out.stream, now: () => now });
    now = 4000;
    display.update({ done: 20, total: 400 });
    display.stop();
    expect(out.text()).toContain('orders ACC100 [');
    expect(out.text()).toContain('] 20/400 order details | 5.0/s | ETA 1m16s');
  });

  it('says minutes and seconds left', () => {
    expect(formatEta(600, 5)).toBe('2m00s');
    expect(formatEta(7, 5)).toBe('1s');
    expect(formatEta(10, 0)).toBe('?');
  });
});

describe('sync --once as a user runs it', () => {
  const TOKEN = 'progress-token';
  const prefix = testRedisPrefix('progress');
  let sim: RunningSimulator;
  let t: TestDatabase;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    t = await createTestDatabase();
    sim = await startSimulator({
      seed: 7,
      clock: 'manual',
      start: new Date('2026-11-03T20:00:00Z'),
      tokens: [TOKEN],
      volume: { historyDays: 2 },
    });
    env = {
      PATH: process.env.PATH,
      DATABASE_URL: t.url,
      REDIS_URL: inject('redisUrl'),
      FULFILLMENT_QUEUE_PREFIX: prefix,
      FULFILLMENT_API_URL: sim.url,
      FULFILLMENT_API_TOKEN: TOKEN,
      FULFILLMENT_ACCOUNT_NUMBERS: sim.world.accounts.map((a) => a.number).join(','),
      // Slow enough that the fetch outlasts one 5-s line interval.
      FULFILLMENT_ORDER_DETAIL_RPS: '6',
      LOG_LEVEL: 'warn',
    };
    // Shipments name the orders whose details the orders stream then fetches.
    const shipments = await runSourceCli(['sync', '--once', '--stream', 'shipments'], { env });
    expect(shipments.code, shipments.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await sim?.close();
    const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
    await cleanupRedisPrefix(redis, prefix);
    redis.disconnect();
    await t?.close();
  });

  it('piped: progress lines on stderr, only the summary on stdout', async () => {
    const scope = sim.world.accounts[0]!.number;
    const result = await runSourceCli(['sync', '--once', '--stream', 'orders', '--scope', scope], { env });
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line).toMatch(new RegExp(`^orders ${scope}: \\d+/\\d+ order details, [\\d.]+/s, ETA \\S+$`));
    }
    const [, done, total] = /: (\d+)\/(\d+) /.exec(lines.at(-1)!)!;
    expect(done).toBe(total);
    expect(result.stdout).toMatch(new RegExp(`^orders +scopes 1 +fetched ${total} `));
    expect(result.stdout).not.toMatch(/order details, [\d.]+\/s/);
  }, 120_000);

  it('on a terminal: a progress bar that ends at total', async () => {
    const scope = sim.world.accounts[1]!.number;
    const command = [process.execPath, CLI_ENTRY, 'sync', '--once', '--stream', 'orders', '--scope', scope]
      .map((word) => `'${word}'`)
      .join(' ');
    // script(1) runs the command on a pseudo-terminal, as a user's shell would.
    const result = await collect(spawn('script', ['-qec', command, '/dev/null'], { env }));
    expect(result.code, result.stdout).toBe(0);
    const screen = result.stdout.replaceAll('\r', '\n');
    expect(screen).toContain(`orders ${scope} [`);
    const counts = [...screen.matchAll(/\] (\d+)\/(\d+) order details \| [\d.]+\/s/g)];
    expect(counts.length).toBeGreaterThan(1);
    expect(counts.at(-1)![1]).toBe(counts.at(-1)![2]);
  }, 120_000);
});
