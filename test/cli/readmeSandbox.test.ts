import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collect, linesOf, REPO_ROOT, SOURCE_CLI, spawnSourceCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * The README's sandbox examples, run as written: the simulator started by the README's own command
 * (on a free port instead of 4010), then each line of its `api` and update-events blocks through a
 * shell, with `fulfillment-sync` on PATH. A README edit that breaks an example fails here.
 */

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const README_PORT_URL = 'http://127.0.0.1:4010';

/** The lines of the ```sh block after `<!-- readme-sandbox: name -->`. */
function block(name: string): string[] {
  const match = new RegExp(`<!-- readme-sandbox: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(README);
  if (!match) throw new Error(`README.md has no readme-sandbox block "${name}"`);
  return linesOf(match[1]!);
}

/** `export A=1 B=2   # comment` as variables. */
function exported(line: string): Record<string, string> {
  const words = line.replace(/#.*$/, '').trim().split(/\s+/).slice(1);
  return Object.fromEntries(words.map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
}

const work = mkdtempSync(path.join(tmpdir(), 'fs-readme-'));
const prefix = testRedisPrefix('readme');
let t: TestDatabase;
let simulator: ChildProcess;
let simUrl = '';
let env: NodeJS.ProcessEnv;

/** Runs one README line through sh, the README's URL pointed at this test's simulator. */
function shell(line: string) {
  const child = spawn('/bin/sh', ['-c', line.replaceAll(README_PORT_URL, simUrl)], { cwd: work, env });
  return child;
}

beforeAll(async () => {
  t = await createTestDatabase();
  // `fulfillment-sync` as an installed bin would be, running the sources.
  const bin = path.join(work, 'bin');
  mkdirSync(bin);
  writeFileSync(
    path.join(bin, 'fulfillment-sync'),
    `#!/bin/sh\nexec "${process.execPath}" "${SOURCE_CLI}" "$@"\n`,
  );
  chmodSync(path.join(bin, 'fulfillment-sync'), 0o755);

  const [start] = block('simulator');
  const args = start!.split(/\s+/).slice(1);
  expect(args[0]).toBe('simulator');
  simulator = spawnSourceCli([...args, '--port', '0'], { env: { PATH: process.env.PATH } });
  let banner = '';
  simulator.stdout?.on('data', (chunk) => {
    banner += String(chunk);
  });
  await waitFor('the simulator banner', () => /FULFILLMENT_API_URL=(\S+)/.test(banner), 60_000);
  simUrl = /FULFILLMENT_API_URL=(\S+)/.exec(banner)![1]!;
  env = {
    PATH: `${bin}:${process.env.PATH}`,
    DATABASE_URL: t.url,
    REDIS_URL: inject('redisUrl'),
    FULFILLMENT_QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'warn',
  };
}, 90_000);

afterAll(async () => {
  simulator?.kill('SIGTERM');
  const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
  await cleanupRedisPrefix(redis, prefix);
  redis.disconnect();
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('README: the API from the command line, against the sandbox simulator', () => {
  it('every example answers with data', async () => {
    const lines = block('api');
    expect(lines.length).toBeGreaterThanOrEqual(7);
    for (const line of lines) {
      if (line.startsWith('export ')) {
        Object.assign(env, exported(line.replaceAll(README_PORT_URL, simUrl)));
        continue;
      }
      const result = await collect(shell(line));
      expect(result.stderr, line).toBe('');
      expect(result.code, line).toBe(0);
      const payload = JSON.parse(result.stdout) as unknown;
      // A lookup answers a record, a list at least one, a write its confirmation strings.
      if (Array.isArray(payload)) expect(payload.length, line).toBeGreaterThan(0);
      else expect(payload, line).toBeTypeOf('object');
      expect(payload, line).not.toBeNull();
    }
  }, 120_000);
});

describe('README: seeing update events in the sandbox', () => {
  it('events tail prints the events of the changes after the clock moved', async () => {
    let tail: ChildProcess | undefined;
    let tailed = '';
    const syncs: string[] = [];
    try {
      for (const line of block('events')) {
        if (line.startsWith('export ')) {
          Object.assign(env, exported(line));
          continue;
        }
        if (line.replace(/#.*$/, '').trim().endsWith('&')) {
          tail = shell(`exec ${line.replace(/#.*$/, '').trim().replace(/&$/, '')}`);
          tail.stdout?.on('data', (chunk) => {
            tailed += String(chunk);
          });
          // It reads from the newest event on when it starts, then LISTENs: wait for its LISTEN.
          await waitFor(
            'events tail listening',
            async () =>
              (
                await t.pool.query(
                  "SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'",
                )
              ).rowCount! > 0,
            30_000,
          );
          continue;
        }
        const result = await collect(shell(line));
        expect(result.code, `${line}\n${result.stderr}`).toBe(0);
        if (/sync --once/.test(line)) syncs.push(result.stdout);
      }
      await waitFor('an event printed by events tail', () => tailed.includes('"type"'), 30_000);
      const types = new Set(linesOf(tailed).map((l) => (JSON.parse(l) as { type: string }).type));
      console.info(`events after the clock move: ${[...types].sort().join(', ')}`);
      expect(types.size).toBeGreaterThan(1);
      // The sync after the clock move reads the shipments of the simulated hours.
      const shipmentsFetched = syncs.map((out) => Number(/^shipments\s.*fetched (\d+)/m.exec(out)?.[1]));
      console.info(`shipments fetched by each sync: ${shipmentsFetched.join(', ')}`);
      expect(shipmentsFetched.at(-1)).toBeGreaterThan(0);
      expect([...types].some((type) => type.startsWith('shipment.'))).toBe(true);
    } finally {
      tail?.kill('SIGTERM');
    }
  }, 240_000);
});
