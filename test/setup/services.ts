import { execFileSync } from 'node:child_process';
import net from 'node:net';

/** Where the test services live; resolved once per run by the global setup. */
export interface TestServices {
  databaseUrl: string;
  redisUrl: string;
  stop: () => Promise<void>;
}

const LOCAL_DATABASE_URL = 'postgres://root@127.0.0.1:5432/postgres';
const LOCAL_REDIS_URL = 'redis://127.0.0.1:6379';

function canConnect(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || defaultPort) });
    socket.setTimeout(2000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

function dockerAvailable(): boolean {
  try {
    execFileSync('docker', ['info'], { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves Postgres and Redis for the test run: explicit TEST_* URLs first, then the local services,
 * then testcontainers when a Docker engine is there. Never skips: an unreachable service is an error.
 */
export async function resolveTestServices(env = process.env): Promise<TestServices> {
  const explicitDb = env.TEST_DATABASE_URL;
  const explicitRedis = env.TEST_REDIS_URL;
  const stops: Array<() => Promise<void>> = [];

  let databaseUrl = explicitDb ?? LOCAL_DATABASE_URL;
  let redisUrl = explicitRedis ?? LOCAL_REDIS_URL;

  const dbUp = await canConnect(databaseUrl, 5432);
  const redisUp = await canConnect(redisUrl, 6379);

  if ((!dbUp && !explicitDb) || (!redisUp && !explicitRedis)) {
    if (dockerAvailable()) {
      if (!dbUp) {
        const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
        const pg = await new PostgreSqlContainer('postgres:16-alpine').start();
        databaseUrl = pg.getConnectionUri();
        stops.push(async () => void (await pg.stop()));
      }
      if (!redisUp) {
        const { RedisContainer } = await import('@testcontainers/redis');
        const redis = await new RedisContainer('redis:7-alpine').start();
        redisUrl = redis.getConnectionUrl();
        stops.push(async () => void (await redis.stop()));
      }
    }
  }

  const problems: string[] = [];
  if (!(await canConnect(databaseUrl, 5432))) {
    problems.push(
      `Postgres is not reachable at ${redact(databaseUrl)}: start it or set TEST_DATABASE_URL (tests never skip).`,
    );
  }
  if (!(await canConnect(redisUrl, 6379))) {
    problems.push(
      `Redis is not reachable at ${redact(redisUrl)}: start it or set TEST_REDIS_URL (tests never skip).`,
    );
  }
  if (problems.length > 0) {
    await Promise.all(stops.map((s) => s()));
    throw new Error(problems.join('\n'));
  }
  return { databaseUrl, redisUrl, stop: async () => void (await Promise.all(stops.map((s) => s()))) };
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparseable url>';
  }
}
