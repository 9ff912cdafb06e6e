import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { queuePrefixOf } from '../../src/cli/queuePrefix.ts';
import { UsageError } from '../../src/cli/usageError.ts';
import { ConfigError } from '../../src/config/configError.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { redactConfig } from '../../src/config/redact.ts';
import { describeRedis } from '../../src/redis/describe.ts';

const dir = mkdtempSync(join(tmpdir(), 'fs-config-redis-'));
const caFile = join(dir, 'ca.pem');
writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function problemsOf(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('Redis deployment settings', () => {
  it('a single node by default, over TLS with rediss:// (verification on unless REDIS_TLS_INSECURE)', () => {
    expect(loadConfig({}).redis).toEqual({
      mode: 'standalone',
      url: 'redis://localhost:6379',
      tls: undefined,
    });
    expect(loadConfig({ REDIS_URL: 'rediss://cache:6380', REDIS_TLS_CA_FILE: caFile }).redis).toEqual({
      mode: 'standalone',
      url: 'rediss://cache:6380',
      tls: { caFile, rejectUnauthorized: true },
    });
    expect(loadConfig({ REDIS_URL: 'rediss://cache:6380', REDIS_TLS_INSECURE: 'true' }).redis.tls).toEqual({
      caFile: undefined,
      rejectUnauthorized: false,
    });
  });

  it('Sentinel: the sentinels and the master name, credentials from REDIS_URL', () => {
    const config = loadConfig({
      REDIS_URL: 'redis://:s3cret@ignored/2',
      REDIS_SENTINELS: 'sentinel-a:26379, 10.0.0.2:26380,[::1]:26381',
      REDIS_SENTINEL_MASTER: 'mymaster',
      REDIS_SENTINEL_PASSWORD: 'sentinel-pw',
    });
    expect(config.redis).toMatchObject({
      mode: 'sentinel',
      masterName: 'mymaster',
      sentinelPassword: 'sentinel-pw',
      sentinels: [
        { host: 'sentinel-a', port: 26379 },
        { host: '10.0.0.2', port: 26380 },
        { host: '::1', port: 26381 },
      ],
    });
    expect(config.queuePrefix).toBe('fulfillment-sync');
    const printed = JSON.stringify(redactConfig(config));
    expect(printed).not.toContain('s3cret');
    expect(printed).not.toContain('sentinel-pw');
    expect(describeRedis(config.redis)).toBe(
      'Redis master mymaster of sentinels sentinel-a:26379,10.0.0.2:26380,[::1]:26381',
    );
  });

  it('Cluster: seed nodes, and a hash-tagged queue prefix by default', () => {
    const config = loadConfig({ REDIS_CLUSTER_NODES: 'n1:7000,n2:7001' });
    expect(config.redis).toMatchObject({
      mode: 'cluster',
      nodes: [
        { host: 'n1', port: 7000 },
        { host: 'n2', port: 7001 },
      ],
    });
    expect(config.queuePrefix).toBe('{fulfillment-sync}');
    expect(
      loadConfig({ REDIS_CLUSTER_NODES: 'n1:7000', FULFILLMENT_QUEUE_PREFIX: 'prod-{fs}' }).queuePrefix,
    ).toBe('prod-{fs}');
  });

  it('refuses each inconsistent setting in one line naming the variable, never echoing a password', () => {
    const cases: [NodeJS.ProcessEnv, RegExp][] = [
      [
        { REDIS_CLUSTER_NODES: 'n1:7000', FULFILLMENT_QUEUE_PREFIX: 'prod' },
        /^FULFILLMENT_QUEUE_PREFIX: must contain a hash tag such as \{prod\}/,
      ],
      [
        { REDIS_CLUSTER_NODES: 'n1:7000', FULFILLMENT_QUEUE_PREFIX: 'prod{}' },
        /^FULFILLMENT_QUEUE_PREFIX: must contain a hash tag/,
      ],
      [{ REDIS_CLUSTER_NODES: 'n1' }, /^REDIS_CLUSTER_NODES: each item must be host:port/],
      [{ REDIS_CLUSTER_NODES: 'n1:70000' }, /^REDIS_CLUSTER_NODES: each item must be host:port/],
      [
        { REDIS_CLUSTER_NODES: 'n1:7000', REDIS_URL: 'redis://:pw@x/3' },
        /^REDIS_URL: a Redis Cluster has only database 0/,
      ],
      [{ REDIS_SENTINELS: 's1:26379' }, /^REDIS_SENTINEL_MASTER: required with REDIS_SENTINELS/],
      [{ REDIS_SENTINEL_MASTER: 'mymaster' }, /^REDIS_SENTINEL_MASTER: applies only with REDIS_SENTINELS/],
      [{ REDIS_SENTINEL_PASSWORD: 'pw' }, /^REDIS_SENTINEL_PASSWORD: applies only with REDIS_SENTINELS/],
      [
        { REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_MASTER: 'm', REDIS_CLUSTER_NODES: 'n1:7000' },
        /^REDIS_CLUSTER_NODES: set either REDIS_SENTINELS .* or REDIS_CLUSTER_NODES .*, not both$/,
      ],
      [
        { REDIS_TLS_INSECURE: 'true' },
        /^REDIS_TLS_INSECURE: applies only to TLS; use a rediss:\/\/ REDIS_URL/,
      ],
      [{ REDIS_TLS_CA_FILE: caFile }, /^REDIS_TLS_CA_FILE: applies only to TLS/],
      [
        { REDIS_URL: 'rediss://h', REDIS_TLS_CA_FILE: join(dir, 'missing.pem') },
        /^REDIS_TLS_CA_FILE: cannot read ".*missing\.pem"/,
      ],
      [
        { REDIS_URL: 'rediss://h', REDIS_TLS_INSECURE: 'maybe' },
        /^REDIS_TLS_INSECURE: must be true or false/,
      ],
      [{ REDIS_URL: 'http://:pw@h' }, /^REDIS_URL: must use redis: or rediss:/],
    ];
    for (const [env, expected] of cases) {
      const problems = problemsOf(env);
      expect(problems, JSON.stringify(env)).toHaveLength(1);
      expect(problems[0], JSON.stringify(env)).toMatch(expected);
      expect(problems[0]).not.toContain('\n');
      expect(problems[0]).not.toMatch(/:pw@|\bpw\b/);
    }
  });

  it('--queue-prefix is held to the same rule as FULFILLMENT_QUEUE_PREFIX on a Cluster', () => {
    const cluster = loadConfig({ REDIS_CLUSTER_NODES: 'n1:7000' });
    expect(queuePrefixOf(undefined, cluster)).toBe('{fulfillment-sync}');
    expect(queuePrefixOf(' {blue} ', cluster)).toBe('{blue}');
    expect(() => queuePrefixOf('blue', cluster)).toThrow(UsageError);
    expect(() => queuePrefixOf('blue', cluster)).toThrow(
      /^--queue-prefix: must contain a hash tag such as \{blue\}/,
    );
    expect(() => queuePrefixOf(' ', cluster)).toThrow('--queue-prefix must not be blank');
    expect(queuePrefixOf('blue', loadConfig({}))).toBe('blue');
  });
});
