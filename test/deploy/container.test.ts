import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { collect, REPO_ROOT, runSourceCli, spawnSourceCli } from '../helpers/cli.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { dropRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * No Docker engine runs here, so the image and the compose file are checked as files: every path the
 * Dockerfile copies exists, the command it runs is the file the build produces, and compose wires the
 * services as the README says.
 */

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions, with continuation lines joined and comments dropped. */
function dockerInstructions(text: string): Instruction[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword, ...rest] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: rest.join(' ') };
    });
}

/** The instructions of each stage, by stage name. */
function stages(instructions: Instruction[]): Map<string, Instruction[]> {
  const byStage = new Map<string, Instruction[]>();
  let current: Instruction[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      current = [instruction];
      byStage.set(/\bAS\s+(\S+)/i.exec(instruction.args)?.[1] ?? String(byStage.size), current);
    } else {
      current.push(instruction);
    }
  }
  return byStage;
}

const root = (...parts: string[]) => path.join(REPO_ROOT, ...parts);
const HEALTHCHECK_SCRIPT = 'deploy/docker/healthcheck.mjs';
const dockerfile = dockerInstructions(readFileSync(root('Dockerfile'), 'utf8'));
const byStage = stages(dockerfile);
const runtime = [...byStage.values()].at(-1)!;
const pkg = JSON.parse(readFileSync(root('package.json'), 'utf8')) as {
  bin: Record<string, string>;
  engines: { node: string };
};
const buildConfig = JSON.parse(readFileSync(root('tsconfig.build.json'), 'utf8')) as {
  compilerOptions: { outDir: string; rootDir: string };
};

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  profiles?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
  restart?: string;
  ports?: string[];
  stop_grace_period?: string;
}
const compose = parse(readFileSync(root('docker-compose.yml'), 'utf8'), { merge: true }) as {
  services: Record<string, ComposeService>;
};
const services = compose.services;

describe('Dockerfile', () => {
  it('builds in stages from one exact slim Node 24 (LTS) image, the one the docs name', () => {
    expect(byStage.size).toBeGreaterThanOrEqual(2);
    const bases = new Set([...byStage.values()].map((instructions) => instructions[0]!.args.split(/\s+/)[0]));
    expect(bases.size).toBe(1);
    const [base] = [...bases];
    // An exact version (or a digest), never a tag that moves under a rebuild.
    expect(base).toMatch(/^node:24\.\d+\.\d+-bookworm-slim(@sha256:[0-9a-f]{64})?$/);
    const operations = readFileSync(root('docs/operations.md'), 'utf8');
    expect(operations).toContain(`The container image runs Node 24** (\`${base}\`)`);
    // The image's Node (24) satisfies the package's own requirement: its last range is open upwards.
    const minimum = />=(\d+)\.\d+\.\d+$/.exec(pkg.engines.node);
    expect(Number(minimum?.[1])).toBeLessThanOrEqual(24);
    expect(byStage.get('build')?.some((i) => i.keyword === 'RUN' && i.args.includes('npm run build'))).toBe(
      true,
    );
  });

  it('copies only paths that exist in the build context (and that .dockerignore keeps)', () => {
    const ignored = readFileSync(root('.dockerignore'), 'utf8')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const copies = dockerfile.filter((i) => i.keyword === 'COPY' && !i.args.includes('--from='));
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies) {
      const words = copy.args.split(/\s+/).filter((w) => !w.startsWith('--'));
      for (const source of words.slice(0, -1)) {
        expect(existsSync(root(source)), source).toBe(true);
        expect(ignored, source).not.toContain(source);
      }
    }
  });

  it('runs, behind tini as PID 1, the file the build produces: the package bin', () => {
    const entrypoint = JSON.parse(runtime.find((i) => i.keyword === 'ENTRYPOINT')!.args) as string[];
    expect(entrypoint.slice(0, 3)).toEqual(['/usr/bin/tini', '--', 'node']);
    expect(runtime.some((i) => i.keyword === 'RUN' && /apt-get install .*\btini\b/.test(i.args))).toBe(true);
    const workdir = runtime.find((i) => i.keyword === 'WORKDIR')!.args;
    const script = path.posix.relative(workdir, entrypoint[3]!);
    // tsc emits src/cli/main.ts to <outDir>/src/cli/main.js (rootDir is the repository).
    expect(buildConfig.compilerOptions).toMatchObject({ outDir: 'dist', rootDir: '.' });
    expect(existsSync(root('src/cli/main.ts'))).toBe(true);
    expect(script).toBe('dist/src/cli/main.js');
    expect(script).toBe(pkg.bin['fulfillment-sync']);
    // dist/ reaches the runtime stage from the build stage.
    expect(
      runtime.some((i) => i.keyword === 'COPY' && /--from=build \/app\/dist \.\/dist$/.test(i.args)),
    ).toBe(true);
    expect(JSON.parse(runtime.find((i) => i.keyword === 'CMD')!.args)).toEqual(['worker']);
  });

  it('runs as a non-root user, with a health check that finds the worker on any HTTP_PORT', () => {
    const user = runtime.findLast((i) => i.keyword === 'USER')?.args;
    expect(user).toBeDefined();
    expect(['root', '0']).not.toContain(user);
    const health = runtime.find((i) => i.keyword === 'HEALTHCHECK')!.args;
    const command = JSON.parse(health.slice(health.indexOf('CMD') + 3).trim()) as string[];
    expect(command).toEqual(['node', '/app/deploy/docker/healthcheck.mjs']);
    expect(
      runtime.some((i) => i.keyword === 'COPY' && i.args === `${HEALTHCHECK_SCRIPT} ./${HEALTHCHECK_SCRIPT}`),
    ).toBe(true);
    expect(readFileSync(root(HEALTHCHECK_SCRIPT), 'utf8')).toContain('/healthz');
    const env = runtime
      .filter((i) => i.keyword === 'ENV')
      .map((i) => i.args)
      .join(' ');
    expect(env).toMatch(/\bHTTP_PORT_FILE=\/tmp\/\S+/);
  });

  it('ships schemas/, so the paths `events types` prints exist in the image', async () => {
    expect(runtime.some((i) => i.keyword === 'COPY' && i.args === 'schemas ./schemas')).toBe(true);
    expect(runtime.find((i) => i.keyword === 'WORKDIR')!.args).toBe('/app');
    const listed = await runSourceCli(['events', 'types', '--json'], { env: { PATH: process.env.PATH } });
    expect(listed.code, listed.stderr).toBe(0);
    const schemas = (JSON.parse(listed.stdout) as { schema: string }[]).map((e) => e.schema);
    expect(schemas.length).toBeGreaterThan(20);
    for (const schema of schemas) {
      expect(schema.startsWith('schemas/'), schema).toBe(true);
      expect(existsSync(root(schema)), schema).toBe(true);
    }
  });
});

describe('the image health check script, with HTTP_PORT=0 (any free port)', () => {
  it('answers healthy while the worker listens and unhealthy once it stopped', async () => {
    const t = await createTestDatabase();
    const prefix = testRedisPrefix('healthcheck');
    const dir = mkdtempSync(path.join(tmpdir(), 'fs-health-'));
    const portFile = path.join(dir, 'http.port');
    const check = () =>
      collect(
        spawn(process.execPath, [root(HEALTHCHECK_SCRIPT)], {
          env: { PATH: process.env.PATH, HTTP_PORT: '0', HTTP_PORT_FILE: portFile },
        }),
      );
    const worker = spawnSourceCli(['worker'], {
      env: {
        PATH: process.env.PATH,
        DATABASE_URL: t.url,
        REDIS_URL: inject('redisUrl'),
        FULFILLMENT_QUEUE_PREFIX: prefix,
        HTTP_PORT: '0',
        HTTP_PORT_FILE: portFile,
        LOG_LEVEL: 'warn',
      },
    });
    try {
      expect((await check()).code).toBe(1); // not listening yet: no file, and port 0 answers nothing
      await waitFor('the worker writes its port', () => existsSync(portFile), 60_000);
      expect(Number(readFileSync(portFile, 'utf8'))).toBeGreaterThan(0);
      expect((await check()).code).toBe(0);
      worker.kill('SIGTERM');
      await once(worker, 'exit');
      expect(existsSync(portFile)).toBe(false);
      expect((await check()).code).toBe(1);
    } finally {
      worker.kill('SIGKILL');
      await dropRedisPrefix(inject('redisUrl'), prefix);
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('docker-compose.yml', () => {
  it('has postgres, redis with noeviction and AOF, a one-shot migrate, the simulator and the worker', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining(['postgres', 'redis', 'migrate', 'simulator', 'worker']),
    );
    const redis = services.redis!.command!.join(' ');
    expect(redis).toContain('--maxmemory-policy noeviction');
    expect(redis).toContain('--appendonly yes');
    expect(services.migrate!.command).toEqual(['migrate']);
    expect(services.migrate!.restart).toBe('no');
    for (const name of ['migrate', 'simulator', 'worker']) expect(services[name]!.build, name).toBe('.');
  });

  it('points the worker at the simulator service with its token, in sandbox data', () => {
    const simulator = services.simulator!.command!;
    expect(simulator[0]).toBe('simulator');
    const flag = (name: string) => simulator[simulator.indexOf(name) + 1];
    expect(flag('--host')).toBe('0.0.0.0');
    const env = services.worker!.environment!;
    expect(env.FULFILLMENT_API_URL).toBe(`http://simulator:${flag('--port')}`);
    expect(env.FULFILLMENT_API_TOKEN).toBe(flag('--token'));
    // The simulator's default world (seed 42).
    expect(env.FULFILLMENT_SUPPLIER_IDS).toBe('SUP100,SUP200');
    expect(env.FULFILLMENT_ACCOUNT_NUMBERS).toBe('ACC100,ACC200');
    expect(env.DATABASE_URL).toBe('postgres://postgres@postgres:5432/fulfillment');
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(services.worker!.depends_on).toMatchObject({
      migrate: { condition: 'service_completed_successfully' },
      simulator: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    // Longer than WORKER_SHUTDOWN_TIMEOUT_MS (30 s), so SIGTERM drains before a SIGKILL.
    expect(Number.parseInt(services.worker!.stop_grace_period!, 10)).toBeGreaterThan(30);
  });

  it('publishes every port on this machine only (trust-auth Postgres, Redis without a password)', () => {
    const published = Object.entries(services).flatMap(([name, service]) =>
      (service.ports ?? []).map((port) => [name, port] as const),
    );
    expect(published.map(([name]) => name)).toEqual(expect.arrayContaining(['postgres', 'redis', 'worker']));
    for (const [name, port] of published) expect(port, name).toMatch(/^127\.0\.0\.1:\d+:\d+$/);
  });

  it('pins every image it pulls to an exact version (or a digest), never a moving major tag', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.build) continue;
      expect(service.image, name).toMatch(
        /:(v?\d+\.\d+(\.\d+)?(-[a-z0-9]+)?)(@sha256:[0-9a-f]{64})?$|@sha256:[0-9a-f]{64}$/,
      );
    }
  });

  it('profile observability adds Prometheus scraping the worker and Grafana, provisioned from deploy/', () => {
    for (const name of ['prometheus', 'grafana']) {
      expect(services[name]!.profiles, name).toEqual(['observability']);
      for (const volume of services[name]!.volumes ?? []) {
        const source = volume.split(':')[0]!;
        expect(existsSync(root(source)), volume).toBe(true);
      }
    }
    const prometheus = parse(readFileSync(root('deploy/prometheus/prometheus.yml'), 'utf8')) as {
      rule_files: string[];
      scrape_configs: { job_name: string; static_configs: { targets: string[] }[] }[];
    };
    const targets = prometheus.scrape_configs[0]!.static_configs[0]!.targets;
    expect(targets).toEqual([`worker:${services.worker!.environment!.HTTP_PORT}`]);
    expect(prometheus.rule_files).toEqual(['/etc/prometheus/alerts.yml']);
    expect(existsSync(root('deploy/prometheus/alerts.yml'))).toBe(true);
    const provider = parse(
      readFileSync(root('deploy/grafana/provisioning/dashboards/fulfillment-sync.yml'), 'utf8'),
    ) as { providers: { options: { path: string } }[] };
    expect(services.grafana!.volumes).toContain(
      `./deploy/grafana/dashboards:${provider.providers[0]!.options.path}:ro`,
    );
  });
});
