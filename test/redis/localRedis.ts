import { type ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis, type RedisOptions } from 'ioredis';
import { waitFor } from '../helpers/waitFor.ts';
import { freePort } from '../worker/fixtures.ts';

const run = promisify(execFile);

/**
 * Real `redis-server` processes for the Sentinel, Cluster and TLS tests: each on a free loopback
 * port with its own temporary directory, started and killed by the test itself.
 */

/** One redis-server (or sentinel) process. */
export interface RedisProcess {
  port: number;
  dir: string;
  child: ChildProcess;
  /** The last lines it logged, for a failure message. */
  log: () => string;
  /** SIGKILL, as a crash; resolves when the process is gone. */
  kill: () => Promise<void>;
}

/** Fails with one clear line when this machine has no redis-server (the tests need a real one). */
export function requireRedisServer(): void {
  const probe = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (probe.error !== undefined || probe.status !== 0) {
    throw new Error(
      'redis-server is not installed (the Sentinel, Cluster and TLS tests start their own): apt-get install redis-server',
    );
  }
}

/** Whether this redis-server was built with TLS (`--tls-port` is refused by one built without). */
export function redisServerHasTls(): boolean {
  // A port of 0 for both makes a TLS-capable server exit at once ("not listen anywhere"); one
  // built without TLS refuses the unknown directive first.
  const probe = spawnSync('redis-server', ['--port', '0', '--tls-port', '0'], {
    encoding: 'utf8',
    timeout: 5_000,
  });
  const output = `${probe.stdout}${probe.stderr}`;
  return !/Bad directive|not supported|unsupported|FATAL CONFIG FILE ERROR/i.test(output);
}

/** A temporary directory the group removes when it stops. */
export interface LocalRedisGroup {
  dir: string;
  /** Starts one redis-server with `args` (after port, bind, dir, no persistence) and waits for it. */
  start: (
    args?: string[],
    options?: { port?: number; ping?: RedisOptions; configFile?: string },
  ) => Promise<RedisProcess>;
  /** Kills every process started here and removes the directory (safe to call twice). */
  stop: () => Promise<void>;
}

export function localRedisGroup(label: string): LocalRedisGroup {
  requireRedisServer();
  const dir = mkdtempSync(join(tmpdir(), `fs-${label}-`));
  const processes: RedisProcess[] = [];
  return {
    dir,
    async start(args = [], options = {}) {
      const port = options.port ?? (await freePort());
      const own = join(dir, String(port));
      const nodeDir = mkdtempSync(`${own}-`);
      const logFile = join(nodeDir, 'redis.log');
      const base = [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        nodeDir,
        '--save',
        '',
        '--appendonly',
        'no',
      ];
      const argv = options.configFile ? [options.configFile, ...base, ...args] : [...base, ...args];
      const child = spawn('redis-server', [...argv, '--logfile', logFile], { stdio: 'ignore' });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      const log = () => {
        try {
          return spawnSync('tail', ['-n', '20', logFile], { encoding: 'utf8' }).stdout;
        } catch {
          return '';
        }
      };
      const proc: RedisProcess = {
        port,
        dir: nodeDir,
        child,
        log,
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      };
      processes.push(proc);
      const ping = options.ping ?? {};
      await waitFor(
        `redis-server on port ${port} to answer (${args.join(' ')})`,
        async () => {
          if (child.exitCode !== null) throw new Error(`redis-server on port ${port} exited: ${log()}`);
          const redis = new Redis({
            host: '127.0.0.1',
            port,
            lazyConnect: true,
            maxRetriesPerRequest: 0,
            retryStrategy: () => null,
            ...ping,
          });
          redis.on('error', () => {});
          try {
            await redis.connect();
            return (await redis.ping()) === 'PONG';
          } catch {
            return false;
          } finally {
            redis.disconnect();
          }
        },
        15_000,
        50,
      );
      return proc;
    },
    async stop() {
      await Promise.all(processes.map((p) => p.kill()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** How to run the nodes of a cluster over TLS: their TLS arguments, and redis-cli's. */
export interface ClusterTls {
  /** redis-server arguments for a node whose TLS port is `port` (plain port off). */
  serverArgs: (port: number) => string[];
  cliArgs: string[];
  ping: RedisOptions;
}

/**
 * Masters with every slot assigned (`redis-cli --cluster create`), waited for until every node
 * reports the cluster ok. Over TLS when `tls` is given (`tls-cluster`: the bus too).
 */
export async function startCluster(
  group: LocalRedisGroup,
  size = 3,
  tls?: ClusterTls,
): Promise<RedisProcess[]> {
  const nodes: RedisProcess[] = [];
  for (let i = 0; i < size; i += 1) {
    const port = await freePort();
    // The bus port defaults to port + 10000, past 65535 for much of the ephemeral range: pick one.
    const busPort = await freePort();
    const cluster = ['--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf'];
    const timing = ['--cluster-node-timeout', '2000', '--cluster-port', String(busPort)];
    nodes.push(
      await group.start([...cluster, ...timing, ...(tls?.serverArgs(port) ?? [])], { port, ping: tls?.ping }),
    );
  }
  const cli = tls?.cliArgs ?? [];
  const addresses = nodes.map((n) => `127.0.0.1:${n.port}`);
  await run('redis-cli', [
    ...cli,
    '--cluster',
    'create',
    ...addresses,
    '--cluster-replicas',
    '0',
    '--cluster-yes',
  ]);
  await waitFor(
    'every cluster node to report cluster_state:ok',
    async () => {
      for (const node of nodes) {
        const { stdout } = await run('redis-cli', [...cli, '-p', String(node.port), 'cluster', 'info']);
        if (!stdout.includes('cluster_state:ok')) return false;
      }
      return true;
    },
    20_000,
    100,
  );
  return nodes;
}

/** How to run a group over TLS: a process's TLS arguments, and redis-cli's. */
export interface GroupTls {
  /** redis-server arguments for a process whose TLS port is `port` (plain port off). */
  serverArgs: (port: number) => string[];
  cliArgs: string[];
  ping: RedisOptions;
}

/**
 * A master, its replica and one sentinel watching them with short timeouts (failover in seconds),
 * all with `password`; over TLS (replication and the sentinel's links too) when `tls` is given.
 */
export async function startSentinelGroup(
  group: LocalRedisGroup,
  masterName: string,
  password: string,
  tls?: GroupTls,
): Promise<{ master: RedisProcess; replica: RedisProcess; sentinel: RedisProcess; cli: string[] }> {
  const cli = tls?.cliArgs ?? [];
  const tlsArgs = async (): Promise<{ port?: number; args: string[] }> => {
    if (tls === undefined) return { args: [] };
    const port = await freePort();
    return { port, args: [...tls.serverArgs(port), '--tls-replication', 'yes'] };
  };
  // Both nodes need both settings: after a failover the old master would rejoin as a replica.
  const auth = ['--requirepass', password, '--masterauth', password];
  const ping = { ...tls?.ping, password };
  const m = await tlsArgs();
  const master = await group.start([...auth, ...m.args], { port: m.port, ping });
  const r = await tlsArgs();
  const replica = await group.start([...auth, ...r.args, '--replicaof', '127.0.0.1', String(master.port)], {
    port: r.port,
    ping,
  });
  await waitFor(
    'the replica to be in sync with the master',
    async () => {
      const { stdout } = await run('redis-cli', [
        ...cli,
        ...['-p', String(replica.port), '--no-auth-warning', '-a', password, 'info', 'replication'],
      ]);
      return stdout.includes('master_link_status:up');
    },
    15_000,
    100,
  );
  const configFile = join(group.dir, `sentinel-${master.port}.conf`);
  // Sentinel rewrites its configuration file, so it gets one of its own.
  writeFileSync(
    configFile,
    [
      `sentinel monitor ${masterName} 127.0.0.1 ${master.port} 1`,
      `sentinel auth-pass ${masterName} ${password}`,
      `sentinel down-after-milliseconds ${masterName} 1000`,
      `sentinel failover-timeout ${masterName} 3000`,
      `sentinel parallel-syncs ${masterName} 1`,
      '',
    ].join('\n'),
  );
  const s = await tlsArgs();
  const sentinel = await group.start(['--sentinel', ...s.args], {
    configFile,
    port: s.port,
    ping: tls?.ping,
  });
  await waitFor(
    'the sentinel to know the replica',
    async () => {
      const { stdout } = await run('redis-cli', [
        ...cli,
        '-p',
        String(sentinel.port),
        'sentinel',
        'replicas',
        masterName,
      ]);
      return stdout.includes(String(replica.port));
    },
    15_000,
    100,
  );
  return { master, replica, sentinel, cli };
}

/** The master address the sentinel names now (`host:port`). */
export async function sentinelMaster(
  sentinel: RedisProcess,
  masterName: string,
  cli: string[] = [],
): Promise<string> {
  const { stdout } = await run('redis-cli', [
    ...cli,
    '-p',
    String(sentinel.port),
    'sentinel',
    'get-master-addr-by-name',
    masterName,
  ]);
  return stdout.trim().split('\n').join(':');
}
