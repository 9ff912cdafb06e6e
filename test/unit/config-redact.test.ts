import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { redactConfig, redactUrl } from '../../src/config/redact.ts';

describe('redactUrl', () => {
  it('hides the password and keeps the rest', () => {
    expect(redactUrl('postgres://app:s3cret@db:5432/wh')).toBe('postgres://app:***@db:5432/wh');
    expect(redactUrl('redis://:s3cret@cache:6379')).toBe('redis://:***@cache:6379');
    expect(redactUrl('postgres://localhost:5432/fulfillment')).toBe('postgres://localhost:5432/fulfillment');
    expect(redactUrl('https://h/x?token=abc&page=2')).toBe('https://h/x?token=***&page=2');
  });

  it('hides an unparseable value whole', () => {
    expect(redactUrl('no url s3cret')).toBe('***');
  });
});

describe('redactConfig', () => {
  const secrets = ['tok-s3cret', 'cs-s3cret', 'dash-s3cret', 'db-s3cret', 'redis-s3cret'];

  it('replaces every secret and keeps whether it is set', () => {
    const printed = redactConfig(
      loadConfig({
        DATABASE_URL: 'postgres://app:db-s3cret@db/wh',
        REDIS_URL: 'redis://:redis-s3cret@cache:6379',
        FULFILLMENT_API_URL: 'https://api.example.com',
        FULFILLMENT_API_TOKEN: 'tok-s3cret',
        DASHBOARD_USER: 'admin',
        DASHBOARD_PASSWORD: 'dash-s3cret',
        FULFILLMENT_SYNC_START: '2026-01-01T00:00:00Z',
      }),
    );
    const text = JSON.stringify(printed);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(printed).toMatchObject({
      databaseUrl: 'postgres://app:***@db/wh',
      redisUrl: 'redis://:***@cache:6379',
      api: { token: '***', clientSecret: null, baseUrl: 'https://api.example.com' },
      dashboard: { user: 'admin', password: '***' },
      syncStart: '2026-01-01T00:00:00.000Z',
    });
  });

  it('redacts the client secret of the token-URL mode', () => {
    const printed = redactConfig(
      loadConfig({
        FULFILLMENT_TOKEN_URL: 'https://auth.example.com/token',
        FULFILLMENT_CLIENT_ID: 'client-1',
        FULFILLMENT_CLIENT_SECRET: 'cs-s3cret',
      }),
    );
    expect(JSON.stringify(printed)).not.toContain('cs-s3cret');
    expect(printed).toMatchObject({ api: { clientId: 'client-1', clientSecret: '***', token: null } });
  });
});
