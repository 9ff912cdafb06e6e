import { createHash } from 'node:crypto';
import type { AmbiguousTime } from '../time/parse.ts';
import { parseDateTime } from '../time/parse.ts';

/**
 * Key of a child record that carries no id of its own (IN notes, order holds and messages, shipment
 * tracking events): a sha256 hex of the identifying members as a JSON array (null for a missing
 * member). JSON quotes each part, so no value can pass for two parts ('a|b','c' vs 'a','b|c'), and it
 * keeps a missing part apart from an empty one. Deterministic, so the same note or hold always lands
 * on the same row. The parts are what the members mean, not how they were spelled (`instantPart`,
 * `codePart`, `textPart`): a record sent again in another spelling keeps its key.
 */
export function contentKey(parts: ReadonlyArray<string | number | boolean | null | undefined>): string {
  return createHash('sha256')
    .update(JSON.stringify(parts.map((p) => p ?? null)))
    .digest('hex');
}

/**
 * ASCII white space only, and ASCII letters only for case: exactly what the migration that re-keyed
 * the stored rows folds in SQL (migrations/*child_keys_from_meaning.sql), so both agree on every key.
 */
const SPACES = /[ \t\n\r\f\v]+/g;
const LOWER = /[a-z]+/g;

/** A free text as a key part: runs of white space as one space, none at either end; blank: null. */
export function textPart(value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const text = String(value).replace(SPACES, ' ').replace(/^ | $/g, '');
  return text === '' ? null : text;
}

/** A code or a name whose case means nothing (a hold name, a note type, a city): `textPart`, upper case. */
export function codePart(value: string | number | null | undefined): string | null {
  return textPart(value)?.replace(LOWER, (letters) => letters.toUpperCase()) ?? null;
}

/** How offset-less upstream date-times are read (config.timezone, config.ambiguousTime). */
export interface KeyClock {
  timezone: string;
  ambiguousTime?: AmbiguousTime | undefined;
}

/**
 * A date-time as a key part: the instant it names, as ISO UTC with milliseconds, however it was
 * spelled (with or without an offset, in UTC, with more digits); unset or missing: null. A text that
 * is no date-time stays a text (its record is rejected anyway, the column cannot hold it).
 */
export function instantPart(value: string | null | undefined, clock: KeyClock): string | null {
  try {
    return parseDateTime(value, clock.timezone, clock.ambiguousTime)?.toISOString() ?? null;
  } catch {
    return textPart(value);
  }
}
