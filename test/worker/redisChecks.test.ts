import { spawn } from 'node:child_process';
import { pino } from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import type { RedisConnection } from '../../src/redis/connection.ts';
import { createClientRedis, createWorkerRedis } from '../../src/worker/connections.ts';
import { checkWorkerRedis, RedisSettingsError } from '../../src/worker/redisChecks.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { freePort } from './fixtures.ts';

const redisUrl = inject('redisUrl');
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c();
});

function capturingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

describe('worker Redis checks', () => {
  it('refuses a connection that would give up on commands during a blip', async () => {
    const redis = createClientRedis(redisUrl);
    cleanups.push(() => redis.disconnect());
    await expect(checkWorkerRedis(redis, pino({ level: 'silent' }))).rejects.toThrow(RedisSettingsError);
  });

  it('warns when the eviction policy is not noeviction, and not when it is', async () => {
    const port = await freePort();
    const server = spawn(
      'redis-server',
      ['--port', String(port), '--save', '', '--appendonly', 'no', '--maxmemory-policy', 'allkeys-lru'],
      { stdio: 'ignore' },
    );
    cleanups.push(() => server.kill('SIGKILL'));
    const redis = createWorkerRedis(`redis://127.0.0.1:${port}`);
    redis.on('error', () => {});
    cleanups.push(() => redis.disconnect());
    await waitFor('dedicated redis up', async () => redis.status === 'ready');

    const lru = capturingLogger();
    await checkWorkerRedis(redis, lru.logger);
    expect(lru.lines.some((l) => l.level === 40 && l.msg.includes('allkeys-lru'))).toBe(true);

    await redis.config('SET', 'maxmemory-policy', 'noeviction');
    const ok = capturingLogger();
    await checkWorkerRedis(redis, ok.logger);
    expect(ok.lines).toEqual([]);
  });

  it('accepts the worker connection of the shared Redis', async () => {
    const redis: RedisConnection = createWorkerRedis(redisUrl);
    cleanups.push(() => redis.disconnect());
    await expect(checkWorkerRedis(redis, pino({ level: 'silent' }))).resolves.toBeUndefined();
  });
});
