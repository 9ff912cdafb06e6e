import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/configError.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { STREAM_DEFAULTS } from '../../src/config/streamDefaults.ts';

/** The problems loadConfig reports for `env`, or a failure when it accepts it. */
function problemsOf(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).name).toBe('ConfigError');
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig defaults', () => {
  it('needs no environment at all (sandbox mode)', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      databaseUrl: 'postgres://localhost:5432/fulfillment',
      redisUrl: 'redis://localhost:6379',
      sandbox: true,
      supplierIds: [],
      accountNumbers: [],
      syncStart: undefined,
      timezone: 'America/Los_Angeles',
      ambiguousTime: 'later',
      httpPort: 9464,
      logLevel: 'info',
      dashboard: { user: undefined, password: undefined },
      events: { lowStockThreshold: 12, lowStockThresholdsBySku: {}, deliverInitialLoadEvents: false },
      webhooks: {
        allowPrivateTargets: false,
        timeoutMs: 15_000,
        retryMaxDelayMs: 86_400_000,
        endpointConcurrency: 10,
        maxInFlight: 1000,
      },
      worker: { concurrency: 4, shutdownTimeoutMs: 30_000 },
    });
    expect(config.api).toEqual({
      baseUrl: undefined,
      token: undefined,
      tokenUrl: undefined,
      clientId: undefined,
      clientSecret: undefined,
      timeoutMs: 30_000,
      rateLimitRps: 10,
      orderDetailRps: 5,
      queryParams: {},
      maxRowsPerWindow: 5000,
      maxResponseBytes: 32 * 1024 * 1024,
      runDeadlineMs: 1_800_000,
      clock: 'system',
    });
    expect(config.streams).toEqual(STREAM_DEFAULTS);
  });

  it('uses the contract cadences, lookback and re-read horizons', () => {
    const { streams } = loadConfig({});
    expect(streams.shipments).toEqual({
      cadenceMinutes: 5,
      cadenceIsExplicit: false,
      freshnessSeconds: 60,
      lookbackMinutes: 120,
      rereadDays: 0,
      historyDays: 0,
      windowSize: 31 * 1440,
      minWindowSize: 1,
    });
    // Re-reading streams read their whole horizon and today in one window unless that is too large.
    expect(streams.returns).toMatchObject({ cadenceMinutes: 15, rereadDays: 30, windowSize: 31 });
    expect(streams.inventory.cadenceMinutes).toBe(15);
    expect(streams.inventory_activity).toMatchObject({ cadenceMinutes: 60, rereadDays: 1, historyDays: 90 });
    expect(streams.transfers_in).toMatchObject({ cadenceMinutes: 15, rereadDays: 90 });
    expect(streams.transfers_out).toMatchObject({ cadenceMinutes: 60, rereadDays: 30 });
    expect(streams.invoices).toMatchObject({ cadenceMinutes: 1440, rereadDays: 90, windowSize: 91 });
    expect(streams.products.cadenceMinutes).toBe(1440);
    expect(streams.orders.cadenceMinutes).toBe(0);
  });

  it('targets a minute of freshness for event-bearing streams and half the rate budget for polling', () => {
    const config = loadConfig({});
    for (const name of [
      'shipments',
      'inventory',
      'returns',
      'invoices',
      'transfers_in',
      'transfers_out',
    ] as const)
      expect(config.streams[name].freshnessSeconds).toBe(60);
    expect(config.streams.products.freshnessSeconds).toBe(86_400);
    expect(config.streams.orders.freshnessSeconds).toBe(0);
    expect(config.polling.budgetShare).toBe(0.5);
    expect(loadConfig({ FULFILLMENT_POLL_BUDGET_SHARE: '25%' }).polling.budgetShare).toBe(0.25);
    expect(loadConfig({ FULFILLMENT_POLL_BUDGET_SHARE: '0.8' }).polling.budgetShare).toBe(0.8);
    expect(() => loadConfig({ FULFILLMENT_POLL_BUDGET_SHARE: '0' })).toThrow(/FULFILLMENT_POLL_BUDGET_SHARE/);
    expect(() => loadConfig({ FULFILLMENT_POLL_BUDGET_SHARE: '150%' })).toThrow(/at most 1/);
  });

  it('confirms a snapshot that loses every row, or half or more of at least 10, with two further reads 2 s apart', () => {
    expect(loadConfig({}).vanishConfirm).toEqual({ share: 0.5, minRows: 10, rereads: 2, pauseMs: 2000 });
    const tuned = loadConfig({
      FULFILLMENT_VANISH_CONFIRM_SHARE: '30%',
      FULFILLMENT_VANISH_CONFIRM_MIN_ROWS: '50',
      FULFILLMENT_VANISH_CONFIRM_READS: '1',
      FULFILLMENT_VANISH_CONFIRM_PAUSE_MS: '0',
    });
    expect(tuned.vanishConfirm).toEqual({ share: 0.3, minRows: 50, rereads: 1, pauseMs: 0 });
    // A shrink is always read again at least once: otherwise a real emptying could never land.
    expect(() => loadConfig({ FULFILLMENT_VANISH_CONFIRM_READS: '0' })).toThrow(
      /FULFILLMENT_VANISH_CONFIRM_READS: must be a whole number from 1 to 10/,
    );
    expect(() => loadConfig({ FULFILLMENT_VANISH_CONFIRM_SHARE: '0' })).toThrow(
      /FULFILLMENT_VANISH_CONFIRM_SHARE/,
    );
    expect(() => loadConfig({ FULFILLMENT_VANISH_CONFIRM_MIN_ROWS: 'ten' })).toThrow(
      /FULFILLMENT_VANISH_CONFIRM_MIN_ROWS/,
    );
  });

  it('lets an explicit cadence win over the freshness target', () => {
    const { streams } = loadConfig({ FULFILLMENT_STREAMS: '{"invoices": {"cadenceMinutes": 60}}' });
    expect(streams.invoices).toMatchObject({
      cadenceMinutes: 60,
      cadenceIsExplicit: true,
      freshnessSeconds: 60,
    });
    expect(streams.returns.cadenceIsExplicit).toBe(false);
  });

  it('keeps a re-read horizon whole when only its length is overridden', () => {
    const { streams } = loadConfig({
      FULFILLMENT_STREAMS: '{"invoices": {"rereadDays": 45}, "returns": {"rereadDays": 10, "windowSize": 3}}',
    });
    expect(streams.invoices).toMatchObject({ rereadDays: 45, windowSize: 46 });
    expect(streams.returns).toMatchObject({ rereadDays: 10, windowSize: 3 });
  });

  it('treats blank values as unset', () => {
    const config = loadConfig({ FULFILLMENT_API_URL: '  ', FULFILLMENT_TIMEOUT_MS: '', LOG_LEVEL: '' });
    expect(config.sandbox).toBe(true);
    expect(config.api.timeoutMs).toBe(30_000);
    expect(config.logLevel).toBe('info');
  });

  it('treats a blank FULFILLMENT_QUEUE_PREFIX as unset, not as an empty prefix', () => {
    expect(loadConfig({ FULFILLMENT_QUEUE_PREFIX: '' }).queuePrefix).toBe('fulfillment-sync');
    expect(loadConfig({ FULFILLMENT_QUEUE_PREFIX: '   ' }).queuePrefix).toBe('fulfillment-sync');
    expect(loadConfig({ FULFILLMENT_QUEUE_PREFIX: ' blue ' }).queuePrefix).toBe('blue');
  });
});

describe('loadConfig values', () => {
  it('reads every variable', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgresql://app:pw@db:5432/wh',
      REDIS_URL: 'rediss://:pw@cache:6380',
      FULFILLMENT_API_URL: 'https://api.example.com/v1/',
      FULFILLMENT_API_TOKEN: 'tok',
      FULFILLMENT_SUPPLIER_IDS: ' S1, ,S2,S1 ',
      FULFILLMENT_ACCOUNT_NUMBERS: 'A1',
      FULFILLMENT_SYNC_START: '2026-01-31',
      FULFILLMENT_TIMEZONE: 'America/New_York',
      FULFILLMENT_AMBIGUOUS_TIME: 'Earlier',
      FULFILLMENT_QUERY_PARAMS: '{"GET Shipments/Updates": {"beginDate": "from"}}',
      FULFILLMENT_RATE_LIMIT_RPS: '2.5',
      FULFILLMENT_TIMEOUT_MS: '1000',
      FULFILLMENT_MAX_ROWS_PER_WINDOW: '100',
      FULFILLMENT_STREAMS:
        '{"shipments": {"windowSize": 30, "lookbackMinutes": 60}, "orders": {"cadenceMinutes": 10}}',
      FULFILLMENT_LOW_STOCK_THRESHOLD: '3',
      FULFILLMENT_LOW_STOCK_THRESHOLDS: '{"SKU-1": 0, "SKU-2": 50}',
      FULFILLMENT_DELIVER_INITIAL_EVENTS: 'yes',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_MAX_DELAY_MS: '1000',
      WORKER_CONCURRENCY: '8',
      FULFILLMENT_ORDER_DETAIL_RPS: '1',
      WORKER_SHUTDOWN_TIMEOUT_MS: '0',
      HTTP_PORT: '0',
      FULFILLMENT_QUEUE_PREFIX: 'blue',
      DASHBOARD_USER: 'admin',
      DASHBOARD_PASSWORD: 'pw',
      LOG_LEVEL: 'DEBUG',
    });
    expect(config.sandbox).toBe(false);
    expect(config.api.baseUrl).toBe('https://api.example.com/v1');
    expect(config.supplierIds).toEqual(['S1', 'S2']);
    expect(config.accountNumbers).toEqual(['A1']);
    // A date alone is midnight in the configured zone.
    expect(config.syncStart?.toISOString()).toBe('2026-01-31T05:00:00.000Z');
    expect(config.api.queryParams).toEqual({ 'GET Shipments/Updates': { beginDate: 'from' } });
    expect(config.api.rateLimitRps).toBe(2.5);
    expect(config.ambiguousTime).toBe('earlier');
    expect(config.streams.shipments).toMatchObject({
      windowSize: 30,
      lookbackMinutes: 60,
      cadenceMinutes: 5,
    });
    expect(config.streams.orders.cadenceMinutes).toBe(10);
    expect(config.events).toEqual({
      lowStockThreshold: 3,
      lowStockThresholdsBySku: { 'SKU-1': 0, 'SKU-2': 50 },
      deliverInitialLoadEvents: true,
    });
    expect(config.webhooks).toEqual({
      allowPrivateTargets: true,
      timeoutMs: 2000,
      retryMaxDelayMs: 1000,
      endpointConcurrency: 10,
      maxInFlight: 1000,
    });
    expect(config.worker).toEqual({ concurrency: 8, shutdownTimeoutMs: 0 });
    expect(config.api.orderDetailRps).toBe(1);
    expect(config.httpPort).toBe(0);
    expect(config.queuePrefix).toBe('blue');
    expect(config.logLevel).toBe('debug');
  });

  it('accepts the token-URL trio instead of a static token', () => {
    const config = loadConfig({
      FULFILLMENT_API_URL: 'https://api.example.com',
      FULFILLMENT_TOKEN_URL: 'https://auth.example.com/token',
      FULFILLMENT_CLIENT_ID: 'id',
      FULFILLMENT_CLIENT_SECRET: 'cs',
    });
    expect(config.api).toMatchObject({
      tokenUrl: 'https://auth.example.com/token',
      clientId: 'id',
      clientSecret: 'cs',
    });
  });

  it('reads a date-time with or without offset', () => {
    expect(loadConfig({ FULFILLMENT_SYNC_START: '2026-07-01T08:00' }).syncStart?.toISOString()).toBe(
      '2026-07-01T15:00:00.000Z',
    );
    expect(loadConfig({ FULFILLMENT_SYNC_START: '2026-07-01T08:00:00Z' }).syncStart?.toISOString()).toBe(
      '2026-07-01T08:00:00.000Z',
    );
  });

  it('returns a deeply frozen object', () => {
    const config = loadConfig({ FULFILLMENT_SUPPLIER_IDS: 'S1' });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.api)).toBe(true);
    expect(Object.isFrozen(config.api.queryParams)).toBe(true);
    expect(Object.isFrozen(config.streams.shipments)).toBe(true);
    expect(Object.isFrozen(config.supplierIds)).toBe(true);
    expect(() => {
      (config.streams.shipments as { windowSize: number }).windowSize = 5;
    }).toThrow(TypeError);
  });
});

describe('loadConfig problems: one line each, naming the variable', () => {
  it.each([
    ['FULFILLMENT_TIMEOUT_MS', 'abc'],
    ['FULFILLMENT_TIMEOUT_MS', '0'],
    ['FULFILLMENT_TIMEOUT_MS', '1.5'],
    ['FULFILLMENT_RATE_LIMIT_RPS', '0'],
    ['FULFILLMENT_RATE_LIMIT_RPS', 'fast'],
    ['HTTP_PORT', '70000'],
    ['WORKER_CONCURRENCY', '0'],
    ['FULFILLMENT_MAX_ROWS_PER_WINDOW', '-1'],
    ['FULFILLMENT_LOW_STOCK_THRESHOLD', 'x'],
    ['FULFILLMENT_ORDER_DETAIL_RPS', '-2'],
    ['WORKER_SHUTDOWN_TIMEOUT_MS', 'soon'],
    ['FULFILLMENT_DELIVER_INITIAL_EVENTS', 'maybe'],
    ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'sometimes'],
    ['WEBHOOK_TIMEOUT_MS', '0'],
    ['WEBHOOK_RETRY_MAX_DELAY_MS', 'soon'],
    ['LOG_LEVEL', 'loud'],
    ['FULFILLMENT_TIMEZONE', 'Mars/Olympus'],
    ['FULFILLMENT_TIMEZONE', '+02:00'],
    ['FULFILLMENT_AMBIGUOUS_TIME', 'both'],
    ['FULFILLMENT_AMBIGUOUS_TIME', 'standard'],
    ['FULFILLMENT_CLOCK', 'upstream'],
    ['DATABASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['REDIS_URL', 'http://localhost:6379'],
    ['FULFILLMENT_SYNC_START', 'last week'],
    ['FULFILLMENT_SYNC_START', '2026-02-30'],
    ['FULFILLMENT_QUERY_PARAMS', '{oops'],
    ['FULFILLMENT_QUERY_PARAMS', '{"Shipments/Updates": {"beginDate": 5}}'],
    ['FULFILLMENT_QUERY_PARAMS', '{"GET Shipments/Updatez": {"beginDate": "from"}}'],
    ['FULFILLMENT_QUERY_PARAMS', '{"GET Shipments/Updates": {"startDate": "from"}}'],
    ['FULFILLMENT_STREAMS', '{"shipmentz": {}}'],
    ['FULFILLMENT_STREAMS', '{"shipments": {"windowSize": 0}}'],
    ['FULFILLMENT_STREAMS', '{"shipments": {"windowsize": 5}}'],
    ['FULFILLMENT_STREAMS', '{"shipments": {"windowSize": 5, "minWindowSize": 10}}'],
    ['FULFILLMENT_STREAMS', '{"shipments": {"lookbackMinutes": 1e8}}'],
    ['FULFILLMENT_STREAMS', '{"shipments": {"windowSize": 200000}}'],
    ['FULFILLMENT_STREAMS', '{"returns": {"rereadDays": 100000}}'],
    ['FULFILLMENT_STREAMS', '{"invoices": {"windowSize": 800}}'],
    ['FULFILLMENT_STREAMS', '{"invoices": {"minWindowSize": 800}}'],
    ['FULFILLMENT_STREAMS', '{"products": {"cadenceMinutes": 1e9}}'],
    ['FULFILLMENT_LOW_STOCK_THRESHOLDS', '{"SKU-1": -1}'],
    ['FULFILLMENT_LOW_STOCK_THRESHOLDS', '[1,2]'],
  ])('%s=%j', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.startsWith(`${name}`)).toBe(true);
    expect(problems[0]).not.toContain('\n');
  });

  it('names the stream and field of an out-of-range FULFILLMENT_STREAMS value, with its maximum', () => {
    expect(problemsOf({ FULFILLMENT_STREAMS: '{"shipments": {"lookbackMinutes": 1e8}}' })).toEqual([
      'FULFILLMENT_STREAMS (at shipments.lookbackMinutes): must be at most 10080 (minutes), got 100000000',
    ]);
    expect(problemsOf({ FULFILLMENT_STREAMS: '{"transfers_in": {"windowSize": 800}}' })).toEqual([
      'FULFILLMENT_STREAMS (at transfers_in.windowSize): must be at most 731 (days), got 800',
    ]);
  });

  it('accepts FULFILLMENT_STREAMS values at their maxima', () => {
    const config = loadConfig({
      FULFILLMENT_STREAMS: JSON.stringify({
        shipments: {
          lookbackMinutes: 10_080,
          windowSize: 132_480,
          minWindowSize: 132_480,
          cadenceMinutes: 10_080,
        },
        returns: { rereadDays: 730, windowSize: 731 },
      }),
    });
    expect(config.streams.shipments.lookbackMinutes).toBe(10_080);
    expect(config.streams.returns.rereadDays).toBe(730);
  });

  it('collects every problem at once', () => {
    const problems = problemsOf({
      FULFILLMENT_TIMEOUT_MS: 'abc',
      HTTP_PORT: 'x',
      LOG_LEVEL: 'loud',
      DASHBOARD_USER: 'u',
    });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'FULFILLMENT_TIMEOUT_MS',
      'HTTP_PORT',
      'LOG_LEVEL',
      'DASHBOARD_PASSWORD',
    ]);
  });

  it('requires an auth mode with a real API URL', () => {
    const problems = problemsOf({ FULFILLMENT_API_URL: 'https://api.example.com' });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^FULFILLMENT_API_TOKEN: required when FULFILLMENT_API_URL is set/);
  });

  it('refuses both auth modes together, never echoing the secrets', () => {
    const problems = problemsOf({
      FULFILLMENT_API_URL: 'https://api.example.com',
      FULFILLMENT_API_TOKEN: 'tok-hidden-1',
      FULFILLMENT_TOKEN_URL: 'https://auth.example.com/token',
      FULFILLMENT_CLIENT_ID: 'id',
      FULFILLMENT_CLIENT_SECRET: 'cs-hidden-2',
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^FULFILLMENT_API_TOKEN: set either/);
    expect(problems.join()).not.toMatch(/hidden/);
  });

  it('needs the whole token-URL trio, naming each missing variable', () => {
    const problems = problemsOf({ FULFILLMENT_TOKEN_URL: 'https://auth.example.com/token' });
    expect(problems.map((p) => p.split(':')[0])).toEqual([
      'FULFILLMENT_CLIENT_ID',
      'FULFILLMENT_CLIENT_SECRET',
    ]);
  });

  it('needs both dashboard variables or neither', () => {
    expect(problemsOf({ DASHBOARD_PASSWORD: 'p' })).toEqual([
      expect.stringMatching(/^DASHBOARD_USER: required because DASHBOARD_PASSWORD is set/),
    ]);
  });

  it('never echoes a URL that may hold a password', () => {
    const problems = problemsOf({ DATABASE_URL: 'mysql://user:hunter2@db/x', REDIS_URL: 'ftp://:hunter3@r' });
    expect(problems).toHaveLength(2);
    expect(problems.join('\n')).not.toMatch(/hunter/);
  });

  it('puts every problem in the ConfigError message too', () => {
    try {
      loadConfig({ HTTP_PORT: 'x' });
      expect.unreachable();
    } catch (error) {
      expect((error as Error).message).toContain('HTTP_PORT');
    }
  });
});
