import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CLI } from '../../src/runtime/invocation.ts';
import { CLI_ENTRY, collect, linesOf, REPO_ROOT, spawnSourceCli } from '../helpers/cli.ts';
import { createTestDatabase, freshDatabaseUrl, type TestDatabase } from '../helpers/db.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * The sandbox commands of README.md and docs/api.md, run as written: the simulator started by their
 * own command (on a free port instead of 4010), then each line of their marked blocks through a
 * shell, `npx fulfillment-sync` running the sources (test/package/ runs the real `npx` on the build).
 * A doc edit that breaks an example fails here.
 */

const README = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
const API_DOC = readFileSync(path.join(REPO_ROOT, 'docs/api.md'), 'utf8');
const README_PORT_URL = 'http://127.0.0.1:4010';

/** The lines of the ```sh block after `<!-- readme-sandbox: name -->` in a document. */
function block(name: string, doc = README): string[] {
  const match = new RegExp(`<!-- readme-sandbox: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(doc);
  if (!match) throw new Error(`no readme-sandbox block "${name}"`);
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
  // `npx fulfillment-sync` running the sources; any other npx is the real one.
  const bin = path.join(work, 'bin');
  mkdirSync(bin);
  const npx = execFileSync('/bin/sh', ['-c', 'command -v npx'], { encoding: 'utf8' }).trim();
  writeFileSync(
    path.join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = fulfillment-sync ]; then shift; exec "${process.execPath}" "${CLI_ENTRY}" "$@"; fi\nexec "${npx}" "$@"\n`,
  );
  chmodSync(path.join(bin, 'npx'), 0o755);

  // The walk-through and the API examples start the same simulator, so one serves both.
  const [start] = block('walkthrough-simulator');
  expect(block('simulator', API_DOC)).toEqual([start]);
  expect(start!.startsWith(`${CLI} simulator `)).toBe(true);
  const args = start!.slice(CLI.length).trim().split(/\s+/);
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

describe('docs/api.md: the API from the command line, against the sandbox simulator', () => {
  it('every example answers with data', async () => {
    const lines = block('api', API_DOC);
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

describe('README: the walk-through, changes become events', () => {
  it('events tail prints the events of the changes after the clock moved', async () => {
    let tail: ChildProcess | undefined;
    let tailed = '';
    const syncs: string[] = [];
    try {
      for (const line of block('events')) {
        if (line.startsWith('export ')) {
          Object.assign(env, exported(line.replaceAll(README_PORT_URL, simUrl)));
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

describe('README: running it for real (the simulator standing in for the real API)', () => {
  it('every line runs in a checkout as written: .env from the example, config, migrate, sync --once, status', async () => {
    const checkout = mkdtempSync(path.join(work, 'checkout-'));
    copyFileSync(path.join(REPO_ROOT, '.env.example'), path.join(checkout, '.env.example'));
    const target = freshDatabaseUrl();
    try {
      // What the user puts in .env, here in the environment (which wins over .env).
      const real: NodeJS.ProcessEnv = {
        ...env,
        DATABASE_URL: target.url,
        FULFILLMENT_API_URL: simUrl,
        FULFILLMENT_API_TOKEN: 'sandbox-token',
        FULFILLMENT_SUPPLIER_IDS: 'SUP100',
        FULFILLMENT_ACCOUNT_NUMBERS: 'ACC100',
        FULFILLMENT_CLOCK: 'simulator',
      };
      const lines = block('real').filter((line) => !line.startsWith('#'));
      expect(lines.length).toBeGreaterThanOrEqual(5);
      for (const line of lines) {
        const result = await collect(spawn('/bin/sh', ['-c', line], { cwd: checkout, env: real }));
        expect(result.code, `${line}\n${result.stdout}\n${result.stderr}`).toBe(0);
        if (/ migrate\b/.test(line)) expect(result.stdout).toMatch(/^created database /);
        if (/ status\b/.test(line)) expect(result.stdout).toMatch(/^shipments\s+ACC100\s/m);
      }
    } finally {
      await target.drop();
    }
  }, 240_000);
});
