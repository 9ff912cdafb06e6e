import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { createHttpApp } from '../../src/http/app.ts';
import { createStatusReadModel } from '../../src/http/status/readModel.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { freePort } from '../helpers/freePort.ts';

/** /status is served only behind the dashboard's credentials, and says so when Postgres is away. */

const auth = (user: string, password: string) => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
const pools: pg.Pool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

/** A read model over a Postgres that does not answer: nothing listens on the port. */
async function unreachableReadModel() {
  const port = await freePort();
  const pool = new pg.Pool({
    connectionString: `postgres://root@127.0.0.1:${port}/none`,
    connectionTimeoutMillis: 500,
  });
  pool.on('error', () => {});
  pools.push(pool);
  return createStatusReadModel(pool, loadConfig({ DATABASE_URL: `postgres://root@127.0.0.1:${port}/none` }));
}

describe('/status', () => {
  it('is off without DASHBOARD_USER and DASHBOARD_PASSWORD, and says how to turn it on', async () => {
    const app = createHttpApp({ readiness: {}, status: await unreachableReadModel() });
    const res = await app.request('/status');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('set DASHBOARD_USER and DASHBOARD_PASSWORD');
  });

  it('asks for the credentials (401 Basic), refuses wrong ones, and answers 503 while Postgres is away', async () => {
    const app = createHttpApp({
      readiness: {},
      dashboard: { user: 'ops', password: 'right' },
      status: await unreachableReadModel(),
    });
    const anonymous = await app.request('/status');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await app.request('/status', { headers: auth('ops', 'wrong') })).status).toBe(401);
    const res = await app.request('/status', { headers: auth('ops', 'right') });
    expect(res.status).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const page = await res.text();
    expect(page).toContain('cannot be read from Postgres');
    // No detail of the failure (it may name a host or a user).
    expect(page).not.toContain('127.0.0.1');
  });
});

describe('/status over a database', () => {
  it('is sent gzipped to a browser that takes it', async () => {
    const t = await createTestDatabase();
    try {
      const config = loadConfig({ DATABASE_URL: t.url, FULFILLMENT_ACCOUNT_NUMBERS: '1001' });
      const app = createHttpApp({
        readiness: {},
        dashboard: { user: 'ops', password: 'right' },
        status: createStatusReadModel(t.pool, config),
      });
      const res = await app.request('/status', {
        headers: { ...auth('ops', 'right'), 'accept-encoding': 'gzip' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-encoding')).toBe('gzip');
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const page = gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
      expect(page).toContain('<h2>Streams</h2>');
      expect(page).toContain('>shipments<');
    } finally {
      await t.close();
    }
  });
});
