import { redactUrl } from '../config/redact.ts';
import type { RedisTarget } from './connection.ts';

/**
 * Names where Redis is for a log line or an error, passwords never included: the URL redacted for
 * one node, the master name and sentinels for Sentinel, the seed nodes for a Cluster.
 */
export function describeRedis(target: RedisTarget): string {
  if (typeof target === 'string') return `Redis at ${redactUrl(target)}`;
  const addresses = (nodes: readonly { host: string; port: number }[]) =>
    nodes.map(({ host, port }) => (host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`)).join(',');
  const tls = target.tls === undefined ? '' : ' over TLS';
  switch (target.mode) {
    case 'standalone':
      return `Redis at ${redactUrl(target.url)}`;
    case 'sentinel':
      return `Redis master ${target.masterName} of sentinels ${addresses(target.sentinels)}${tls}`;
    case 'cluster':
      return `Redis Cluster at ${addresses(target.nodes)}${tls}`;
  }
}

/** The variable(s) a user sets to point at another Redis, for "start it or set ..." advice. */
export function redisVariables(target: RedisTarget): string {
  if (typeof target === 'string' || target.mode === 'standalone') return 'REDIS_URL';
  return target.mode === 'sentinel' ? 'REDIS_SENTINELS/REDIS_SENTINEL_MASTER' : 'REDIS_CLUSTER_NODES';
}
