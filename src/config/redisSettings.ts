import { accessSync, constants } from 'node:fs';
import { quote } from './envFields.ts';
import type { ParsedEnv } from './envSchema.ts';

/** One Redis node or sentinel, as `host:port`. */
export interface RedisNodeAddress {
  host: string;
  port: number;
}

/** TLS towards Redis: on with a `rediss://` REDIS_URL; the CA and verification as configured. */
export interface RedisTlsSettings {
  /** REDIS_TLS_CA_FILE: a PEM file of the CA(s) to trust instead of the system's; undefined: system CAs. */
  caFile: string | undefined;
  /** REDIS_TLS_INSECURE: skip certificate verification (only ever when set explicitly). */
  rejectUnauthorized: boolean;
}

/**
 * Where Redis is and how to reach it. `url` always holds REDIS_URL: in every mode its scheme
 * (`rediss://`: TLS), username, password and (single node, Sentinel) database apply; with Sentinel
 * or Cluster its host and port are not used, the nodes come from their own variable.
 */
export type RedisSettings =
  | { mode: 'standalone'; url: string; tls: RedisTlsSettings | undefined }
  | {
      mode: 'sentinel';
      url: string;
      tls: RedisTlsSettings | undefined;
      /** REDIS_SENTINELS */
      sentinels: readonly RedisNodeAddress[];
      /** REDIS_SENTINEL_MASTER: the master group name the sentinels monitor. */
      masterName: string;
      /** REDIS_SENTINEL_PASSWORD: the sentinels' own password, when they have one. */
      sentinelPassword: string | undefined;
    }
  | {
      mode: 'cluster';
      url: string;
      tls: RedisTlsSettings | undefined;
      /** REDIS_CLUSTER_NODES: seed nodes; the rest of the cluster is discovered from them. */
      nodes: readonly RedisNodeAddress[];
    };

/**
 * A Redis Cluster runs a multi-key script or transaction only when all its keys hash to one slot.
 * Every key this project writes starts with the queue prefix, so a prefix with a hash tag (`{...}`)
 * keeps BullMQ's scripts, the shared rate limiter and the locks each in one slot.
 */
export const CLUSTER_DEFAULT_QUEUE_PREFIX = '{fulfillment-sync}';

/** Whether Redis Cluster would hash every key starting with `prefix` to one slot (a non-empty `{tag}`). */
export function hasHashTag(prefix: string): boolean {
  const open = prefix.indexOf('{');
  if (open < 0) return false;
  const close = prefix.indexOf('}', open + 1);
  return close > open + 1;
}

/** The one line refusing a queue prefix that would spread a queue's keys over cluster slots. */
export function clusterPrefixProblem(prefix: string, source: string): string | undefined {
  if (hasHashTag(prefix)) return undefined;
  return `${source}: must contain a hash tag such as {${prefix.replace(/[{}]/g, '')}} with REDIS_CLUSTER_NODES set (BullMQ's scripts need every key of a queue in one cluster slot), got ${quote(prefix)}`;
}

/** Parses `host:port` items of REDIS_SENTINELS or REDIS_CLUSTER_NODES; bad items become problems. */
function nodeAddresses(variable: string, items: readonly string[], problems: string[]): RedisNodeAddress[] {
  const nodes: RedisNodeAddress[] = [];
  for (const item of items) {
    // [::1]:26379 for IPv6, host:port otherwise.
    const match = /^(?:\[([^\]]+)\]|([^:[\]\s]+)):(\d{1,5})$/.exec(item);
    const port = match ? Number(match[3]) : Number.NaN;
    if (!match || port < 1 || port > 65_535) {
      problems.push(`${variable}: each item must be host:port (comma-separated), got ${quote(item)}`);
      continue;
    }
    nodes.push({ host: match[1] ?? match[2] ?? '', port });
  }
  return nodes;
}

function tlsSettings(env: ParsedEnv, tls: boolean, problems: string[]): RedisTlsSettings | undefined {
  const caFile = env.REDIS_TLS_CA_FILE;
  const insecure = env.REDIS_TLS_INSECURE;
  if (!tls) {
    for (const [name, set] of [
      ['REDIS_TLS_CA_FILE', caFile !== undefined],
      ['REDIS_TLS_INSECURE', insecure],
    ] as const) {
      if (set) problems.push(`${name}: applies only to TLS; use a rediss:// REDIS_URL or unset ${name}`);
    }
    return undefined;
  }
  if (caFile !== undefined) {
    try {
      accessSync(caFile, constants.R_OK);
    } catch {
      problems.push(`REDIS_TLS_CA_FILE: cannot read ${quote(caFile)} (a PEM file of the CA to trust)`);
    }
  }
  return { caFile, rejectUnauthorized: !insecure };
}

/**
 * REDIS_URL, REDIS_SENTINELS/REDIS_SENTINEL_MASTER/REDIS_SENTINEL_PASSWORD, REDIS_CLUSTER_NODES and
 * REDIS_TLS_* as one `RedisSettings`. Problems (one line each, naming the variable, never a value
 * that could be a secret) are appended to `problems`.
 */
export function redisSettings(env: ParsedEnv, problems: string[]): RedisSettings {
  const url = env.REDIS_URL;
  const parsed = new URL(url);
  const tls = tlsSettings(env, parsed.protocol === 'rediss:', problems);
  const sentinelsSet = env.REDIS_SENTINELS.length > 0;
  const clusterSet = env.REDIS_CLUSTER_NODES.length > 0;
  if (!sentinelsSet) {
    for (const name of ['REDIS_SENTINEL_MASTER', 'REDIS_SENTINEL_PASSWORD'] as const) {
      if (env[name] !== undefined) problems.push(`${name}: applies only with REDIS_SENTINELS set`);
    }
  }
  if (sentinelsSet && clusterSet) {
    problems.push(
      'REDIS_CLUSTER_NODES: set either REDIS_SENTINELS (a Sentinel group) or REDIS_CLUSTER_NODES (a Cluster), not both',
    );
  }
  if (sentinelsSet) {
    const sentinels = nodeAddresses('REDIS_SENTINELS', env.REDIS_SENTINELS, problems);
    const masterName = env.REDIS_SENTINEL_MASTER;
    if (masterName === undefined) {
      problems.push(
        'REDIS_SENTINEL_MASTER: required with REDIS_SENTINELS (the master group name the sentinels monitor, e.g. mymaster)',
      );
    }
    return {
      mode: 'sentinel',
      url,
      tls,
      sentinels,
      masterName: masterName ?? '',
      sentinelPassword: env.REDIS_SENTINEL_PASSWORD,
    };
  }
  if (clusterSet) {
    const database = parsed.pathname.replace(/^\/+/, '');
    if (database !== '' && database !== '0') {
      problems.push(
        `REDIS_URL: a Redis Cluster has only database 0; remove /${database} from the URL (REDIS_CLUSTER_NODES is set)`,
      );
    }
    return {
      mode: 'cluster',
      url,
      tls,
      nodes: nodeAddresses('REDIS_CLUSTER_NODES', env.REDIS_CLUSTER_NODES, problems),
    };
  }
  return { mode: 'standalone', url, tls };
}
