import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * Private Postgres and Redis instances for the chaos suite: their own data directories under the
 * system temp folder and their own free ports, so restarting, flushing or killing them never
 * disturbs the machine's services (or a test run using them). Everything is removed by `stop`.
 */
export interface ChaosServices {
  /** Server URL of the private Postgres (database `postgres`). */
  postgresUrl: string;
  redisUrl: string;
  postgres: { stop(): Promise<void>; start(): Promise<void>; restart(): Promise<void> };
  redis: {
    /** Stops Redis; with `keepData` it first saves a snapshot that the restart loads. */
    stop(options: { keepData: boolean }): Promise<void>;
    start(): Promise<void>;
    restart(options: { keepData: boolean }): Promise<void>;
    flushAll(): Promise<void>;
  };
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (bound, read, released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function postgresBin(name: string): string {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
    for (const v of versions) {
      const bin = path.join(root, v, 'bin', name);
      if (existsSync(bin)) return bin;
    }
  }
  return name;
}

/** Runs a Postgres tool as the data directory's owner: initdb and postgres refuse to run as root. */
function asOwner(bin: string, args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  const [cmd, argv] = isRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(cmd, argv, { stdio: ['ignore', 'ignore', 'pipe'] });
}

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

async function redisAnswers(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Starts a private Postgres and Redis. Fails with one clear line when either cannot start. */
export async function startChaosServices(): Promise<ChaosServices> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'fs-chaos-'));
  const pgData = path.join(base, 'pg');
  const redisDir = path.join(base, 'redis');
  execFileSync('mkdir', ['-p', pgData, redisDir]);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(base, uid, gid);
    chownSync(pgData, uid, gid);
  }
  const pgPort = await freePort();
  asOwner(postgresBin('initdb'), ['-D', pgData, '-A', 'trust', '-U', 'root', '--no-sync', '-E', 'UTF8']);
  const pgCtl = (action: 'start' | 'stop' | 'restart') =>
    asOwner(postgresBin('pg_ctl'), [
      '-D',
      pgData,
      '-w',
      '-l',
      path.join(base, 'postgres.log'),
      ...(action === 'stop' ? ['-m', 'fast'] : []),
      ...(action === 'stop'
        ? []
        : [
            '-o',
            `-p ${pgPort} -k ${base} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300`,
          ]),
      action,
    ]);
  pgCtl('start');
  const postgresUrl = `postgres://root@127.0.0.1:${pgPort}/postgres`;
  await waitFor('the chaos Postgres to answer', () => postgresAnswers(postgresUrl), 30_000, 100);

  const redisPort = await freePort();
  const redisUrl = `redis://127.0.0.1:${redisPort}`;
  let redisChild: ChildProcess | undefined;
  const startRedis = async () => {
    redisChild = spawn(
      'redis-server',
      [
        '--port',
        String(redisPort),
        '--bind',
        '127.0.0.1',
        '--dir',
        redisDir,
        '--save',
        '',
        '--appendonly',
        'no',
      ],
      { stdio: 'ignore' },
    );
    await waitFor('the chaos Redis to answer', () => redisAnswers(redisUrl), 15_000, 100);
  };
  const stopRedis = async ({ keepData }: { keepData: boolean }) => {
    const child = redisChild;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 0 });
    redis.on('error', () => {});
    // SHUTDOWN closes the connection instead of answering: its rejection is the expected outcome.
    await redis.call('SHUTDOWN', keepData ? 'SAVE' : 'NOSAVE').catch(() => {});
    redis.disconnect();
    await exited;
    if (!keepData) rmSync(path.join(redisDir, 'dump.rdb'), { force: true });
  };
  await startRedis();

  let stopped = false;
  return {
    postgresUrl,
    redisUrl,
    postgres: {
      stop: async () => pgCtl('stop'),
      start: async () => {
        pgCtl('start');
        await waitFor('the chaos Postgres to answer', () => postgresAnswers(postgresUrl), 30_000, 100);
      },
      restart: async () => {
        pgCtl('restart');
        await waitFor('the chaos Postgres to answer', () => postgresAnswers(postgresUrl), 30_000, 100);
      },
    },
    redis: {
      stop: stopRedis,
      start: startRedis,
      restart: async (options) => {
        await stopRedis(options);
        await startRedis();
      },
      flushAll: async () => {
        const redis = new Redis(redisUrl);
        await redis.flushall();
        redis.disconnect();
      },
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await stopRedis({ keepData: false }).catch(() => {});
      try {
        pgCtl('stop');
      } catch {
        // already stopped
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
}
