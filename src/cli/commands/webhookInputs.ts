import { InvalidArgumentError } from 'commander';
import { validateEventTypes, validateScopeIds } from '../../webhooks/endpoints/endpointFilter.ts';
import { ATTEMPT_STATUSES } from '../../webhooks/views/attemptLog.ts';
import type { AttemptStatus } from '../../webhooks/views/deliveries.ts';
import { UsageError } from '../usageError.ts';

/**
 * Parsers of the `webhooks` options, for commander: a bad value throws InvalidArgumentError, which
 * commander prints as one line (exit 2). Pure.
 */

const UNIT_MS: Readonly<Record<string, number>> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: an ISO 8601 time, or a duration back from now (90s, 30m, 2h, 7d). */
export function parseSince(value: string, now: Date = new Date()): Date {
  const relative = /^(\d+)\s*([smhd])$/i.exec(value.trim());
  if (relative) {
    const ms = Number(relative[1]) * (UNIT_MS[(relative[2] ?? '').toLowerCase()] ?? Number.NaN);
    return new Date(now.getTime() - ms);
  }
  // Only strings that look like a date: `new Date('7')` would be the year 2001.
  const date = /^\d{4}-\d{2}-\d{2}/.test(value.trim()) ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) {
    throw new InvalidArgumentError(
      `"${value}" is not a time: use ISO 8601 (2026-03-01T10:00:00Z) or a duration back from now (30m, 2h, 7d).`,
    );
  }
  return date;
}

/** `--status`: succeeded, failed or gave_up. */
export function parseAttemptStatus(value: string): AttemptStatus {
  if ((ATTEMPT_STATUSES as readonly string[]).includes(value)) return value as AttemptStatus;
  throw new InvalidArgumentError(`"${value}" is not a status: use ${ATTEMPT_STATUSES.join(', ')}.`);
}

/** `--limit`: a whole number from 1 to 10,000. */
export function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 10_000) {
    throw new InvalidArgumentError(`"${value}" is not a limit: use a whole number from 1 to 10000.`);
  }
  return limit;
}

/** `--header K=V`, repeatable: collects the raw arguments (checked by the update itself). */
export function collectRepeated(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--types a,b,family.*`: a comma list; empty, `all` or `*` means every type. */
export function parseTypes(value: string): string[] {
  if (['all', '*'].includes(value.trim().toLowerCase())) return [];
  return parseList(value);
}

/** `--accounts a,b` / `--suppliers a,b`: a comma list; empty ('') clears it on update. */
export function parseList(value: string): string[] {
  return value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/**
 * The `--types`, `--accounts` and `--suppliers` of add and update, checked before anything is
 * read or stored: an unknown type, a pattern matching no type, or a bad id is one line, exit 2.
 */
export function checkedFilter<T extends { types?: string[]; accounts?: string[]; suppliers?: string[] }>(
  opts: T,
): T {
  try {
    if (opts.types) validateEventTypes(opts.types);
    if (opts.accounts) validateScopeIds(opts.accounts, '--accounts');
    if (opts.suppliers) validateScopeIds(opts.suppliers, '--suppliers');
    return opts;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
