/**
 * Scrubs secrets out of free text: the password in `scheme://user:password@host`, the token after
 * `Bearer`, and Standard Webhooks secrets (`whsec_...`). Used on log messages and string fields, as a
 * second line of defence behind the key-based redaction.
 */

const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*:)([^\s@/?#]+)@/gi;
const BEARER = /\b(Bearer\s+)([^\s"',;]+)/gi;
const WEBHOOK_SECRET = /\bwhsec_[A-Za-z0-9+/=]+/g;
/** Punctuation that closes a sentence or a bracket after a word, not part of it. */
const TRAILING_PUNCTUATION = /[.)\]}>]+$/;

/**
 * Whether the word after "Bearer" is a credential, not prose: "missing or invalid bearer token"
 * and "Bearer realm" keep their words. A credential has a digit or one of `-._~+/=` inside, or is
 * as long as an opaque token (16 characters or more); a real secret the caller knows is redacted
 * by its value anyway (src/api/errors.ts).
 */
export function looksLikeCredential(word: string): boolean {
  return word.length >= 16 || /[0-9._~+/=-]/.test(word);
}

/** `text` with every bearer credential replaced by `mark` (the word "Bearer" and punctuation after it stay). */
export function redactBearerCredentials(text: string, mark: string): string {
  return text.replace(BEARER, (match, prefix: string, word: string) => {
    const trailing = TRAILING_PUNCTUATION.exec(word)?.[0] ?? '';
    const credential = word.slice(0, word.length - trailing.length);
    return looksLikeCredential(credential) ? `${prefix}${mark}${trailing}` : match;
  });
}

/** `text` with URL passwords, bearer tokens and webhook secrets replaced by `***`. */
export function scrubSecrets(text: string): string {
  if (!text.includes('://') && !/bearer|whsec_/i.test(text)) return text;
  return redactBearerCredentials(text.replace(URL_PASSWORD, '$1***@'), '***').replace(
    WEBHOOK_SECRET,
    'whsec_***',
  );
}

/**
 * A copy of `value` with every string scrubbed. Only plain objects and arrays are walked (depth-limited,
 * cycle-safe); Errors and class instances are left to their serializers.
 */
export function scrubDeep(value: unknown, depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (value === null || typeof value !== 'object' || depth > 8 || seen.has(value)) return value;
  if (Array.isArray(value)) {
    seen.add(value);
    return value.map((item) => scrubDeep(item, depth + 1, seen));
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return value;
  seen.add(value);
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = scrubDeep(item, depth + 1, seen);
  return out;
}
