import { readFileSync } from 'node:fs';
import type { ConnectionOptions as TlsOptions } from 'node:tls';
import { Cluster, type ClusterOptions, Redis, type RedisOptions } from 'ioredis';
import type { RedisSettings, RedisTlsSettings } from '../config/redisSettings.ts';

/** A connection to Redis however it is deployed: one node or a Sentinel group (Redis), or a Cluster. */
export type RedisConnection = Redis | Cluster;

/**
 * Where to connect: the configuration's settings, or (tools and tests) the URL of a single node.
 * Every ioredis connection of the project is made here, so Sentinel, Cluster and TLS hold for all.
 */
export type RedisTarget = RedisSettings | string;

/** How one connection behaves through an outage; the same meaning in every deployment mode. */
export interface ConnectionBehaviour {
  /** null: a command waits through an outage (BullMQ workers need it); n: it fails after n retries. */
  maxRetriesPerRequest: number | null;
  /** false: a command while disconnected fails at once instead of waiting in the offline queue. */
  enableOfflineQueue?: boolean;
  lazyConnect?: boolean;
  connectTimeout?: number;
  commandTimeout?: number;
  /** ms before reconnect attempt `attempt` (null: give up); ioredis' default when unset. */
  retryStrategy?: (attempt: number) => number | null;
}

function settingsOf(target: RedisTarget): RedisSettings {
  return typeof target === 'string' ? { mode: 'standalone', url: target, tls: undefined } : target;
}

/** The node-side TLS options; undefined without TLS. The CA file is read when connecting, not at config. */
export function tlsOptions(tls: RedisTlsSettings | undefined): TlsOptions | undefined {
  if (tls === undefined) return undefined;
  return {
    rejectUnauthorized: tls.rejectUnauthorized,
    ...(tls.caFile === undefined ? {} : { ca: readFileSync(tls.caFile) }),
  };
}

/** Username, password and database of REDIS_URL (used in every mode; host and port only for one node). */
function credentials(url: string): Pick<RedisOptions, 'username' | 'password' | 'db'> {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.replace(/^\/+/, '') || '0');
  return {
    ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(Number.isInteger(db) && db > 0 ? { db } : {}),
  };
}

/** ioredis options of one connection (a node or a sentinel-resolved master) with `behaviour`. */
function nodeOptions(behaviour: ConnectionBehaviour): RedisOptions {
  const { retryStrategy, ...rest } = behaviour;
  return { ...rest, ...(retryStrategy === undefined ? {} : { retryStrategy }) };
}

/**
 * Opens one Redis connection for `target` with `behaviour`. A single node is reached at REDIS_URL
 * (`rediss://`: TLS with the configured CA/verification); a Sentinel group through its sentinels,
 * which name the current master each time the connection (re)connects; a Cluster through its seed nodes, following slot moves and failovers itself.
 */
export function createRedisConnection(target: RedisTarget, behaviour: ConnectionBehaviour): RedisConnection {
  const settings = settingsOf(target);
  const tls = tlsOptions(settings.tls);
  switch (settings.mode) {
    case 'standalone':
      return new Redis(settings.url, { ...nodeOptions(behaviour), ...(tls ? { tls } : {}) });
    case 'sentinel':
      return new Redis({
        ...nodeOptions(behaviour),
        ...credentials(settings.url),
        sentinels: settings.sentinels.map(({ host, port }) => ({ host, port })),
        name: settings.masterName,
        ...(settings.sentinelPassword === undefined ? {} : { sentinelPassword: settings.sentinelPassword }),
        // A failover is followed by reconnecting through the sentinels: a dead master drops the
        // connection, and a demoted one is told by the sentinel to drop its clients; a write that
        // still reaches a replica (READONLY) reconnects and is resent. ioredis' failoverDetector is
        // left off: seen here, its disconnect during a reconnect left a connection closed for good.
        reconnectOnError: (error: Error) => (error.message.startsWith('READONLY') ? 2 : false),
        ...(tls ? { tls, enableTLSForSentinelMode: true, sentinelTLS: tls } : {}),
      });
    case 'cluster': {
      const { retryStrategy, enableOfflineQueue, lazyConnect, ...perNode } = behaviour;
      const options: ClusterOptions = {
        redisOptions: { ...perNode, ...credentials(settings.url), ...(tls ? { tls } : {}) },
        ...(enableOfflineQueue === undefined ? {} : { enableOfflineQueue }),
        ...(lazyConnect === undefined ? {} : { lazyConnect }),
        ...(retryStrategy === undefined ? {} : { clusterRetryStrategy: retryStrategy }),
      };
      return new Cluster(
        settings.nodes.map(({ host, port }) => ({ host, port })),
        options,
      );
    }
  }
}

/** `maxRetriesPerRequest` as the connection was made (a Cluster keeps it in its per-node options). */
export function maxRetriesPerRequestOf(connection: RedisConnection): number | null | undefined {
  return connection instanceof Cluster
    ? connection.options.redisOptions?.maxRetriesPerRequest
    : connection.options.maxRetriesPerRequest;
}
