import type { ValueKind } from './valueKind.ts';

/**
 * Canonical comparable form of one column value, so that what the driver reads back (Date,
 * numeric as string, jsonb as object) equals what a record produces (ISO string, number, object).
 * Returns a string (or null): equal data -> equal string.
 */
export function canonical(value: unknown, kind: ValueKind): string | null {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'timestamp': {
      const ms = value instanceof Date ? value.getTime() : Date.parse(String(value));
      return Number.isNaN(ms) ? String(value) : String(ms);
    }
    case 'date':
      return value instanceof Date ? localDay(value) : String(value).slice(0, 10);
    case 'int':
    case 'float':
    case 'numeric': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isNaN(n) ? String(value) : String(n);
    }
    case 'bigint':
      return String(value);
    case 'bool':
      return value ? 't' : 'f';
    case 'json':
      return stableJson(typeof value === 'string' ? safeParse(value) : value);
    default:
      return String(value);
  }
}

/**
 * JSON with object keys sorted, so equal values always serialise identically: jsonb does not keep
 * key order, and event transitions hash values with it.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// pg reads a `date` column as local midnight.
function localDay(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The value of one column in a COPY line (copy.ts), before COPY's own escaping. */
export function wireValue(value: unknown, kind: ValueKind): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'timestamp':
      return value instanceof Date ? value.toISOString() : String(value);
    case 'date':
      return value instanceof Date ? localDay(value) : String(value);
    case 'json':
      return JSON.stringify(value);
    case 'bool':
      return Boolean(value);
    case 'int':
    case 'float':
      return typeof value === 'number' ? value : Number(value);
    default:
      return String(value);
  }
}
