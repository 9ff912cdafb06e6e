import type { Config } from './types.ts';

/** What a secret is printed as; a secret that is unset stays `null`, so "is it set?" stays visible. */
export const REDACTED = '***';

/** `url` with its password (and a bare username-as-token) replaced by `***`; unparseable text is hidden whole. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return REDACTED;
  }
  // Secret query parameters (e.g. ?password=, ?token=) are hidden too.
  const secretParams = [...parsed.searchParams.keys()].filter((key) => /pass|secret|token|key/i.test(key));
  // Nothing to hide: print the value as configured (URL.toString would add a trailing slash).
  if (parsed.password === '' && secretParams.length === 0) return url;
  if (parsed.password !== '') parsed.password = REDACTED;
  for (const key of secretParams) parsed.searchParams.set(key, REDACTED);
  return parsed.toString().replace(/%2A%2A%2A/g, REDACTED);
}

function secret(value: string | undefined): string | null {
  return value === undefined ? null : REDACTED;
}

function optionalUrl(value: string | undefined): string | null {
  return value === undefined ? null : redactUrl(value);
}

/** Redis settings for printing: the URL's password and the sentinels' password hidden. */
function redactRedis(redis: Config['redis']): Record<string, unknown> {
  const url = redactUrl(redis.url);
  if (redis.mode !== 'sentinel') return { ...redis, url };
  return { ...redis, url, sentinelPassword: secret(redis.sentinelPassword) };
}

/**
 * The configuration as a plain JSON-ready object for printing: secrets become `***` (or `null` when
 * unset), passwords inside URLs become `***`, dates become ISO strings.
 */
export function redactConfig(config: Config): Record<string, unknown> {
  return {
    ...config,
    databaseUrl: redactUrl(config.databaseUrl),
    readerRole: config.readerRole ?? null,
    redisUrl: redactUrl(config.redisUrl),
    redis: redactRedis(config.redis),
    api: {
      ...config.api,
      baseUrl: optionalUrl(config.api.baseUrl),
      token: secret(config.api.token),
      tokenUrl: optionalUrl(config.api.tokenUrl),
      clientId: config.api.clientId ?? null,
      clientSecret: secret(config.api.clientSecret),
    },
    syncStart: config.syncStart?.toISOString() ?? null,
    dashboard: { user: config.dashboard.user ?? null, password: secret(config.dashboard.password) },
  };
}
