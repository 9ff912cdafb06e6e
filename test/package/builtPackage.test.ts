import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { collect, linesOf, REPO_ROOT, SOURCE_CLI } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * The package as it ships: the build `prepare` runs on `npm ci` (tsc -p tsconfig.build.json); the bin
 * and `import 'fulfillment-sync'` run that build, with no tsx. Every other test runs the sources. The
 * build goes to a package folder of this test's own (package.json, migrations and node_modules beside
 * it, as an installed package has them), never to the repository's dist/, which other processes on
 * the machine may be running.
 */

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
  bin: Record<string, string>;
  exports: Record<string, { types: string; default: string }>;
};
const work = mkdtempSync(path.join(tmpdir(), 'fs-package-'));
const PACKAGE = path.join(work, 'fulfillment-sync');
const BUILT_BIN = path.join(PACKAGE, pkg.bin['fulfillment-sync']!);
const TOKEN = 'package-token';
let sim: RunningSimulator;

/**
 * A module hook that fails the process if anything resolves to a file of tsx: Node 20's
 * `module.register` sees every ESM import, so the built CLI must get through it untouched.
 */
const NO_TSX_HOOK = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(\`
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (/[\\\\/]node_modules[\\\\/]tsx[\\\\/]/.test(resolved.url)) throw new Error('tsx loaded: ' + resolved.url);
  return resolved;
}\`));
`;

beforeAll(async () => {
  mkdirSync(PACKAGE, { recursive: true });
  const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
  await run(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--outDir', path.join(PACKAGE, 'dist')], {
    cwd: REPO_ROOT,
  });
  copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(PACKAGE, 'package.json'));
  symlinkSync(path.join(REPO_ROOT, 'migrations'), path.join(PACKAGE, 'migrations'), 'dir');
  symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(PACKAGE, 'node_modules'), 'dir');
  writeFileSync(path.join(work, 'no-tsx.mjs'), NO_TSX_HOOK);
  sim = await startSimulator({
    seed: 42,
    clock: 'manual',
    start: new Date('2026-11-03T20:00:00Z'),
    tokens: [TOKEN],
    volume: { historyDays: 2 },
  });
  // A project that installed the package: node_modules/fulfillment-sync is the built package.
  mkdirSync(path.join(work, 'consumer/node_modules'), { recursive: true });
  symlinkSync(PACKAGE, path.join(work, 'consumer/node_modules/fulfillment-sync'), 'dir');
}, 180_000);
afterAll(async () => {
  await sim?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Fastest wall time of `node <args>` over `runs` runs, in ms (the least disturbed by a busy machine), and the output. */
async function timed(args: string[], runs: number) {
  const times: number[] = [];
  let stdout = '';
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    const result = await collect(
      spawn(process.execPath, args, { cwd: work, env: { PATH: process.env.PATH } }),
    );
    times.push(performance.now() - started);
    expect(result.code).toBe(0);
    stdout = result.stdout;
  }
  return { bestMs: Math.round(Math.min(...times)), stdout };
}

describe('the built package', () => {
  it('its bin is the build, and starts without loading tsx', async () => {
    expect(pkg.bin['fulfillment-sync']).toBe('dist/src/cli/main.js');
    expect(readFileSync(BUILT_BIN, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    const hook = path.join(work, 'no-tsx.mjs');
    // The hook catches tsx where it is used: the development entry fails under it...
    const source = await collect(
      spawn(process.execPath, ['--import', hook, SOURCE_CLI, '--help'], {
        cwd: work,
        env: { PATH: process.env.PATH },
      }),
    );
    expect(source.code).not.toBe(0);
    expect(source.stderr).toContain('tsx loaded');
    // ...and the built bin passes through it, printing the same help.
    const built = await timed(['--import', hook, BUILT_BIN, '--help'], 1);
    expect(built.stdout).toContain('Usage: fulfillment-sync');
    // A figure for the reader, not an assertion: timings belong in benchmarks.
    const plain = await timed([BUILT_BIN, '--help'], 2);
    const viaTsx = await timed([SOURCE_CLI, '--help'], 2);
    expect(plain.stdout).toBe(viaTsx.stdout);
    console.info(`--help: built ${plain.bestMs} ms, from source through tsx ${viaTsx.bestMs} ms (best of 2)`);
  });

  it('imports by package name and calls an operation against the simulator', async () => {
    const script = path.join(work, 'consumer/call.mjs');
    writeFileSync(
      script,
      `import { createFulfillmentClient, RequestRuleError, staticTokenProvider } from 'fulfillment-sync';
const client = createFulfillmentClient({
  baseUrl: process.env.SIM_URL,
  tokenProvider: staticTokenProvider(process.env.SIM_TOKEN),
  timeoutMs: 10000,
  rateLimitRps: 0,
});
const { records } = await client.listOwnedProducts({ supplierId: 'SUP100' });
let refused = '';
try {
  await client.listOwnedInventory({ supplierId: 'SUP100', warehouseCode: 'DAL', sku: 'X' });
} catch (error) {
  refused = error instanceof RequestRuleError ? error.name : String(error);
}
console.log(JSON.stringify({ skus: records.map((r) => r.sku), refused, from: import.meta.resolve('fulfillment-sync') }));
`,
    );
    const result = await collect(
      spawn(process.execPath, [script], {
        cwd: path.join(work, 'consumer'),
        env: { PATH: process.env.PATH, SIM_URL: sim.url, SIM_TOKEN: TOKEN },
      }),
    );
    expect(result.stderr).toBe('');
    const answer = JSON.parse(result.stdout) as { skus: string[]; refused: string; from: string };
    expect(answer.skus.sort()).toEqual(
      sim
        .truth()
        .ownedProducts.SUP100!.map((p) => p.sku)
        .sort(),
    );
    expect(answer.refused).toBe('RequestRuleError');
    expect(answer.from).toMatch(/\/dist\/src\/index\.js$/);
  });

  it('comes with types: a TypeScript consumer type-checks, and a wrong call does not', async () => {
    const dir = path.join(work, 'consumer');
    writeFileSync(
      path.join(dir, 'consumer.ts'),
      `import {
  createFulfillmentClient,
  type FulfillmentClient,
  type ListResult,
  type OwnedProduct,
  staticTokenProvider,
} from 'fulfillment-sync';

const client: FulfillmentClient = createFulfillmentClient({
  baseUrl: 'https://fulfillment.example.com',
  tokenProvider: staticTokenProvider('token'),
  timeoutMs: 30_000,
  rateLimitRps: 10,
});

export async function skus(): Promise<string[]> {
  const result: ListResult<OwnedProduct> = await client.listOwnedProducts({ supplierId: 'SUP100' });
  return result.records.map((product) => product.sku);
}

// @ts-expect-error supplierId is required: the types are real, not any.
void client.listOwnedProducts({});
`,
    );
    writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [path.join(REPO_ROOT, 'node_modules/@types')],
        },
        files: ['consumer.ts'],
      }),
    );
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const tsc = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
    const result = await collect(spawn(process.execPath, [tsc, '-p', dir], { cwd: dir }));
    expect(result.stdout + result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(pkg.exports['.']!.types).toBe('./dist/src/index.d.ts');
  });
});

describe('the worker run as a service (README: `node dist/src/cli/main.js worker`)', () => {
  let t: TestDatabase;
  const prefix = testRedisPrefix('service');
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(async () => {
    const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
    await cleanupRedisPrefix(redis, prefix);
    redis.disconnect();
    await t?.close();
  });

  it('is what the README and the systemd unit say to run', () => {
    const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('node dist/src/cli/main.js worker');
    const unit = readFileSync(path.join(REPO_ROOT, 'deploy/systemd/fulfillment-sync-worker.service'), 'utf8');
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/node \S+\/dist\/src\/cli\/main\.js worker$/m);
  });

  it('exits 0 within 30 s of SIGTERM while working, and leaves no process behind', async () => {
    // Its own process group, as under systemd or a container: anything it started would remain in it.
    const child = spawn(process.execPath, [BUILT_BIN, 'worker'], {
      cwd: work,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: t.url,
        REDIS_URL: inject('redisUrl'),
        FULFILLMENT_QUEUE_PREFIX: prefix,
        HTTP_PORT: '0',
        LOG_LEVEL: 'info',
      },
    });
    const lines: string[] = [];
    child.stdout?.on('data', (chunk) => lines.push(...linesOf(String(chunk))));
    child.stderr?.on('data', (chunk) => lines.push(...linesOf(String(chunk))));
    const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    // Sandbox mode: it syncs the in-process simulator's world on schedule from the start.
    await waitFor('a finished sync', () => lines.some((l) => l.includes('"durationMs"')), 90_000);

    const signalled = performance.now();
    child.kill('SIGTERM');
    const [code, signal] = await exited;
    const tookMs = performance.now() - signalled;
    console.info(`worker exited ${code} ${tookMs.toFixed(0)} ms after SIGTERM`);
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeLessThan(30_000);
    expect(lines.some((l) => l.includes('worker stopped'))).toBe(true);
    // No process of its group is left (kill -0 on the group answers ESRCH).
    expect(() => process.kill(-child.pid!, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
});
