import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.ts';
import { scrubSecrets } from '../../src/log/scrub.ts';

/** A logger writing JSON lines into memory, and a way to read them back. */
function memoryLogger() {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level: 'trace', destination, pretty: false });
  return { logger, output: () => chunks.join('') };
}

const SECRETS = {
  token: 'tok-AAA111',
  bearer: 'bearer-BBB222',
  clientSecret: 'cs-CCC333',
  dbPassword: 'pw-DDD444',
  redisPassword: 'pw-EEE555',
  accessToken: 'at-FFF666',
  webhook: 'whsec_R0dHRzc3Nw==',
  password: 'pw-GGG888',
};

describe('createLogger redaction', () => {
  it('keeps every secret out of the raw output, whatever shape it is logged in', () => {
    const { logger, output } = memoryLogger();
    logger.info({ token: SECRETS.token, clientSecret: SECRETS.clientSecret }, 'top-level keys');
    logger.info({ headers: { authorization: `Bearer ${SECRETS.bearer}` } }, 'headers');
    logger.info({ request: { headers: { Authorization: `Bearer ${SECRETS.bearer}` } } }, 'nested headers');
    logger.info({ response: { body: { access_token: SECRETS.accessToken } } }, 'deep token');
    logger.info({ api: { accessToken: SECRETS.accessToken, apiToken: SECRETS.token } }, 'nested keys');
    logger.info({ user: { password: SECRETS.password } }, 'password key');
    logger.info({ webhook: { url: 'https://h/hook', secret: SECRETS.webhook } }, 'webhook');
    logger.info(`connecting to postgres://app:${SECRETS.dbPassword}@db:5432/wh`);
    logger.info({ url: `redis://:${SECRETS.redisPassword}@cache:6379` }, 'redis');
    logger.info({ deep: { list: [{ note: `postgres://u:${SECRETS.dbPassword}@h/db` }] } }, 'array');
    logger.warn('upstream said Authorization: Bearer %s', SECRETS.bearer);
    logger.debug(`sending Bearer ${SECRETS.bearer} to the token endpoint`);
    logger.info(`webhook secret ${SECRETS.webhook} created`);
    logger.error(
      {
        err: new Error(
          `connect failed: postgres://app:${SECRETS.dbPassword}@db/wh (Bearer ${SECRETS.bearer})`,
        ),
      },
      'boom',
    );
    logger.child({ token: SECRETS.token }).info('child bindings');

    const raw = output();
    expect(raw.split('\n').filter(Boolean)).toHaveLength(15);
    for (const [name, secret] of Object.entries(SECRETS)) {
      const leaks = raw.split('\n').filter((line) => line.includes(secret));
      expect(leaks, `${name} leaked`).toEqual([]);
    }
    // Redacted, not dropped: the reader still sees something was there.
    expect(raw).toContain('postgres://app:***@db:5432/wh');
    expect(raw).toContain('"token":"***"');
  });

  it('writes JSON lines with level, time and message by default', () => {
    const { logger, output } = memoryLogger();
    logger.info({ stream: 'shipments' }, 'hello');
    const line = JSON.parse(output().trim()) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, msg: 'hello', stream: 'shipments' });
    expect(typeof line.time).toBe('number');
  });

  it('respects the level', () => {
    const chunks: string[] = [];
    const destination = new Writable({
      write(chunk, _e, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const logger = createLogger({ level: 'warn', destination, pretty: false });
    logger.info('quiet');
    logger.warn('loud');
    expect(chunks.join('')).not.toContain('quiet');
    expect(chunks.join('')).toContain('loud');
  });
});

describe('scrubSecrets', () => {
  it('scrubs URL passwords, bearer tokens and webhook secrets in free text', () => {
    expect(scrubSecrets('postgres://u:pw@h/db and redis://:x@r')).toBe(
      'postgres://u:***@h/db and redis://:***@r',
    );
    expect(scrubSecrets('Authorization: Bearer abc.def-ghi')).toBe('Authorization: Bearer ***');
    expect(scrubSecrets('whsec_abc123==')).toBe('whsec_***');
    expect(scrubSecrets('https://example.com/path?x=1')).toBe('https://example.com/path?x=1');
  });
});

describe('the scrubbers redact secrets, not words', () => {
  it('keep "bearer token" and "Bearer realm" prose, and redact what a bearer credential looks like', async () => {
    const { scrubSecrets: scrubLog } = await import('../../src/log/scrub.ts');
    const { scrubSecrets: scrubApi } = await import('../../src/api/errors.ts');
    for (const [scrub, mark] of [
      [scrubLog, '***'],
      [scrubApi, '[redacted]'],
    ] as const) {
      expect(scrub('missing or invalid bearer token')).toBe('missing or invalid bearer token');
      expect(scrub('the Bearer token is missing.')).toBe('the Bearer token is missing.');
      expect(scrub('send a bearer token.')).toBe('send a bearer token.');
      expect(scrub('Authorization: Bearer abc.def-ghi')).toBe(`Authorization: Bearer ${mark}`);
      expect(scrub('Bearer sandbox-token rejected')).toBe(`Bearer ${mark} rejected`);
      expect(scrub('Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl')).toBe(`Bearer ${mark}`);
      // Letters only but as long as a real opaque token.
      expect(scrub('Bearer AbCdEfGhIjKlMnOpQrSt')).toBe(`Bearer ${mark}`);
    }
  });
});
