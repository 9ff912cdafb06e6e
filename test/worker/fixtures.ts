import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { type Config, STREAM_NAMES, type StreamName, type StreamSettings } from '../../src/config/types.ts';
import { QUICK_CONFIRMATIONS } from '../helpers/syncHarness.ts';

const CADENCES: Record<StreamName, number> = {
  products: 1440,
  inventory: 15,
  inventory_activity: 60,
  transfers_in: 15,
  transfers_out: 60,
  shipments: 5,
  returns: 15,
  invoices: 1440,
  orders: 0,
};

/** A complete Config for tests (the default cadences of docs/configuration.md), with overrides. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const streams = Object.fromEntries(
    STREAM_NAMES.map((name): [StreamName, StreamSettings] => [
      name,
      {
        cadenceMinutes: CADENCES[name],
        // The fixed cadences above, as when freshness targets are off.
        cadenceIsExplicit: true,
        freshnessSeconds: 0,
        lookbackMinutes: 120,
        rereadDays: 30,
        historyDays: 0,
        windowSize: 1,
        minWindowSize: 1,
      },
    ]),
  ) as Record<StreamName, StreamSettings>;
  // Every other setting as the configuration would load it, so new settings need no edit here.
  const loaded = loadConfig({
    DATABASE_URL: 'postgres://root@127.0.0.1:5432/postgres',
    REDIS_URL: 'redis://127.0.0.1:6379',
    FULFILLMENT_TIMEOUT_MS: '10000',
    FULFILLMENT_MAX_ROWS_PER_WINDOW: '1000',
    FULFILLMENT_SUPPLIER_IDS: 'S1,S2',
    FULFILLMENT_ACCOUNT_NUMBERS: 'A1',
    FULFILLMENT_LOW_STOCK_THRESHOLD: '10',
    WORKER_CONCURRENCY: '2',
    WORKER_SHUTDOWN_TIMEOUT_MS: '10000',
    HTTP_PORT: '0',
    LOG_LEVEL: 'silent',
    // Test receivers listen on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...QUICK_CONFIRMATIONS,
  });
  // A test naming another single Redis by URL means it for every connection.
  const redis =
    overrides.redisUrl !== undefined && overrides.redis === undefined
      ? { mode: 'standalone' as const, url: overrides.redisUrl, tls: undefined }
      : loaded.redis;
  return {
    ...loaded,
    streams,
    redis,
    ...overrides,
  };
}

/** A unique BullMQ prefix for one test file. */
export function uniquePrefix(label: string): string {
  return `fs_t_${label}_${randomUUID().slice(0, 8)}`;
}

/** Deletes every key under a prefix (test cleanup). */
export async function deletePrefix(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A free TCP port on loopback (for a dedicated redis-server). */
export { freePort } from '../helpers/freePort.ts';
