import { z } from 'zod';
import { roleNameProblem } from '../db/roleName.ts';

/**
 * zod building blocks for environment variables. Each takes the raw `string | undefined` and yields
 * a typed value or a problem message. A blank value counts as unset, so `VAR=` in a compose file or
 * an `.env` works like leaving it out. Messages echo a value only where it cannot be a secret.
 */

const text = z.preprocess(
  (raw) => (typeof raw === 'string' && raw.trim() !== '' ? raw.trim() : undefined),
  z.string().optional(),
);

/** Quotes a non-secret value for a problem line, shortened so a pasted blob stays one readable line. */
export function quote(raw: string): string {
  return JSON.stringify(raw.length > 60 ? `${raw.slice(0, 57)}...` : raw);
}

/** An optional trimmed string; undefined when unset or blank. */
export function optionalString() {
  return text;
}

/** A whole number in [min, max]. */
export function integerVar(fallback: number, min: number, max: number) {
  return text.transform((raw, ctx) => {
    if (raw === undefined) return fallback;
    const value = /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a whole number from ${min} to ${max}, got ${quote(raw)}`,
      });
      return z.NEVER;
    }
    return value;
  });
}

/** A number greater than 0 and at most max (decimals allowed, e.g. 0.5 requests per second). */
export function positiveNumberVar(fallback: number, max: number) {
  return text.transform((raw, ctx) => {
    if (raw === undefined) return fallback;
    const value = /^\d+(\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
    if (!(value > 0 && value <= max)) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a number above 0 and at most ${max}, got ${quote(raw)}`,
      });
      return z.NEVER;
    }
    return value;
  });
}

/** A share of a whole: `0.5` or `50%`, above 0 and at most 1 (100%). */
export function shareVar(fallback: number) {
  return text.transform((raw, ctx) => {
    if (raw === undefined) return fallback;
    const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(raw.trim());
    const value = match ? Number(match[1]) / (match[2] === '%' ? 100 : 1) : Number.NaN;
    if (!(value > 0 && value <= 1)) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a share above 0 and at most 1 (or a percentage, e.g. 50%), got ${quote(raw)}`,
      });
      return z.NEVER;
    }
    return value;
  });
}

const TRUE_WORDS = new Set(['true', '1', 'yes', 'on']);
const FALSE_WORDS = new Set(['false', '0', 'no', 'off']);

/** true/false (also 1/0, yes/no, on/off). */
export function booleanVar(fallback: boolean) {
  return text.transform((raw, ctx) => {
    if (raw === undefined) return fallback;
    const word = raw.toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
    ctx.addIssue({ code: 'custom', message: `must be true or false, got ${quote(raw)}` });
    return z.NEVER;
  });
}

/**
 * A URL with one of the given protocols. The value is never echoed: URLs carry passwords.
 * Trailing slashes are removed so callers can append `/path`.
 */
export function urlVar<D extends string | undefined>(fallback: D, protocols: readonly string[]) {
  return text.transform((raw, ctx): string | D => {
    if (raw === undefined) return fallback;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({
        code: 'custom',
        message: `is not a valid URL (expected ${protocols.join(' or ')}//...)`,
      });
      return z.NEVER;
    }
    if (!protocols.includes(url.protocol)) {
      ctx.addIssue({
        code: 'custom',
        message: `must use ${protocols.join(' or ')} (got ${url.protocol})`,
      });
      return z.NEVER;
    }
    return raw.replace(/\/+$/, '');
  });
}

/** A comma-separated list: items trimmed, empty items and duplicates dropped. */
export function listVar() {
  return text.transform((raw) => {
    if (raw === undefined) return [] as string[];
    const items = raw
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item !== '');
    return [...new Set(items)];
  });
}

/** One of the given words, compared case-insensitively. */
export function enumVar<const T extends readonly [string, ...string[]]>(fallback: T[number], values: T) {
  return text.transform((raw, ctx): T[number] => {
    if (raw === undefined) return fallback;
    const word = raw.toLowerCase();
    const match = values.find((value) => value === word);
    if (match === undefined) {
      ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')}, got ${quote(raw)}` });
      return z.NEVER;
    }
    return match;
  });
}

/** An IANA time zone name such as America/Los_Angeles (fixed offsets like +02:00 are refused). */
export function timeZoneVar(fallback: string) {
  return text.transform((raw, ctx) => {
    if (raw === undefined) return fallback;
    if (!isIanaTimeZone(raw)) {
      ctx.addIssue({
        code: 'custom',
        message: `must be an IANA time zone such as America/Los_Angeles, got ${quote(raw)}`,
      });
      return z.NEVER;
    }
    return raw;
  });
}

/** Whether the runtime knows `name` as an IANA zone (Intl throws a RangeError for unknown zones). */
export function isIanaTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** A JSON value validated by `schema`; its issues keep their path below the variable's name. */
export function jsonVar<S extends z.ZodType>(schema: S, fallback: z.output<S>) {
  return text
    .transform((raw, ctx): unknown => {
      if (raw === undefined) return undefined;
      try {
        return JSON.parse(raw);
      } catch {
        // JSON.parse's own message quotes the input; keep it out of the problem line.
        ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
        return z.NEVER;
      }
    })
    .pipe(schema.optional())
    .transform((value) => (value === undefined ? fallback : value) as z.output<S>);
}

/** A Postgres role name a reader can be given (see src/db/roleName.ts); undefined when unset. */
export function roleNameVar() {
  return text.transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    const problem = roleNameProblem(raw);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return raw;
  });
}
