/**
 * The settings `webhooks update` takes from the command line, checked before anything is stored:
 * custom headers, a rate limit, metadata. Pure: every function either returns the value or throws
 * an EndpointSettingError whose message is the one line the user sees.
 */

/** A setting the user gave is not valid (a usage error: exit 2). */
export class EndpointSettingError extends Error {
  override name = 'EndpointSettingError';
}

/**
 * Headers a custom header may never set: the Standard Webhooks signature headers (a receiver
 * verifies them), the body's type and length, and what the HTTP connection itself decides.
 */
const RESERVED_HEADERS = new Set([
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);

/** RFC 9110 token characters: what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** At most this many custom headers per endpoint, each value at most this long. */
export const MAX_CUSTOM_HEADERS = 20;
export const MAX_HEADER_VALUE_LENGTH = 2048;

/** The metadata of an endpoint is at most this many bytes of JSON. */
export const MAX_METADATA_BYTES = 4096;

/** The highest per-endpoint rate limit accepted (deliveries per second). */
export const MAX_RATE_LIMIT_PER_SECOND = 10_000;

/**
 * One `--header K=V`: the lower-cased name and the value. An empty value (`K=`) means "remove K".
 * Refuses names that are not HTTP tokens, reserved names, and values with control characters.
 */
export function parseHeaderArgument(argument: string): { name: string; value: string } {
  const equals = argument.indexOf('=');
  if (equals <= 0) {
    // Only what would be the name is echoed: the rest may be a credential ("Authorization: Bearer ...").
    const name = argument.split(/[:\s=]/)[0] ?? '';
    throw new EndpointSettingError(`--header "${name}" is not NAME=VALUE (e.g. --header X-Tenant=acme).`);
  }
  const name = argument.slice(0, equals).trim().toLowerCase();
  const value = argument.slice(equals + 1).trim();
  if (!HEADER_NAME.test(name)) {
    throw new EndpointSettingError(`--header: "${name}" is not a valid HTTP header name.`);
  }
  if (RESERVED_HEADERS.has(name) || name.startsWith('webhook-')) {
    throw new EndpointSettingError(
      `--header: ${name} is set by fulfillment-sync on every delivery (signature and body headers cannot be replaced).`,
    );
  }
  // Control characters would split the request (header injection); tabs are legal inside values.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) {
    throw new EndpointSettingError(`--header ${name}: the value may not contain control characters.`);
  }
  if (value.length > MAX_HEADER_VALUE_LENGTH) {
    throw new EndpointSettingError(
      `--header ${name}: the value is longer than ${MAX_HEADER_VALUE_LENGTH} characters.`,
    );
  }
  return { name, value };
}

/** The endpoint's headers after applying `--header` arguments in order (an empty value removes). */
export function applyHeaderArguments(
  current: Readonly<Record<string, string>>,
  argumentsGiven: readonly string[],
): Record<string, string> {
  const headers: Record<string, string> = { ...current };
  for (const argument of argumentsGiven) {
    const { name, value } = parseHeaderArgument(argument);
    if (value === '') delete headers[name];
    else headers[name] = value;
  }
  if (Object.keys(headers).length > MAX_CUSTOM_HEADERS) {
    throw new EndpointSettingError(`--header: at most ${MAX_CUSTOM_HEADERS} custom headers per endpoint.`);
  }
  return headers;
}

/**
 * `--rate-limit N/s` (or N): deliveries per second, a whole number from 1; `off` (or `none`) removes
 * the limit (null).
 */
export function parseRateLimit(argument: string): number | null {
  const text = argument.trim().toLowerCase();
  if (text === 'off' || text === 'none') return null;
  const match = /^(\d+)(?:\s*\/\s*s)?$/.exec(text);
  const rate = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(rate) || rate < 1 || rate > MAX_RATE_LIMIT_PER_SECOND) {
    throw new EndpointSettingError(
      `--rate-limit "${argument}" is not a rate: use N/s with N from 1 to ${MAX_RATE_LIMIT_PER_SECOND} (e.g. 50/s), or off.`,
    );
  }
  return rate;
}

/** `--metadata JSON`: a JSON object of at most MAX_METADATA_BYTES; `{}` clears it. */
export function parseMetadata(argument: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(argument);
  } catch (error) {
    throw new EndpointSettingError(`--metadata is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new EndpointSettingError('--metadata must be a JSON object, e.g. {"team":"ops"}.');
  }
  if (Buffer.byteLength(JSON.stringify(parsed)) > MAX_METADATA_BYTES) {
    throw new EndpointSettingError(`--metadata is larger than ${MAX_METADATA_BYTES} bytes of JSON.`);
  }
  return parsed as Record<string, unknown>;
}

/** Header names whose values are treated as credentials: shown masked by `get`, `list` and `--json`. */
const SENSITIVE_HEADER = /(auth|token|secret|key|password|passwd|cookie|signature|credential|session)/i;

/** The headers for display, by name: values of credential-like names masked to their last 4 characters. */
export function maskedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, value]) => [
        name,
        SENSITIVE_HEADER.test(name) ? `****${value.length > 8 ? value.slice(-4) : ''}` : value,
      ]),
  );
}

/**
 * The request headers of one delivery: the endpoint's custom ones first, then those fulfillment-sync
 * sets (content type, user agent, signature), which always win whatever was stored.
 */
export function deliveryHeaders(
  custom: Readonly<Record<string, string>>,
  own: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(custom)) {
    const lower = name.toLowerCase();
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('webhook-')) continue;
    headers[lower] = value;
  }
  for (const [name, value] of Object.entries(own)) headers[name.toLowerCase()] = value;
  return headers;
}
