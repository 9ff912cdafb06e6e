import type { QueryMeaning, QueryOperation } from '../../api/queryParams.ts';
import { parseWallBound } from '../zone.ts';
import { RequestRuleError, type RouteContext, type SimRequest } from './context.ts';

/** A query value by meaning, read under its configured wire name; empty strings count as absent. */
export function q<Op extends QueryOperation>(
  ctx: RouteContext,
  req: SimRequest,
  op: Op,
  meaning: QueryMeaning<Op>,
): string | undefined {
  const names = ctx.table[op] as Readonly<Record<string, string>>;
  const value = req.query.get(names[meaning as string] ?? (meaning as string));
  return value === null || value === '' ? undefined : value;
}

/** A parameter with a minimum length (spec 8); required. */
export function required(value: string | undefined, name: string, minLength: number): string {
  if (value === undefined || value.length < minLength) {
    throw new RequestRuleError(`${name} is required and needs at least ${minLength} characters`);
  }
  return value;
}

/** A boolean flag with a default. */
export function flag(value: string | undefined, name: string, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  if (/^(true|1)$/i.test(value)) return true;
  if (/^(false|0)$/i.test(value)) return false;
  throw new RequestRuleError(`${name} must be true or false`);
}

/** A wall-clock range [begin, end], compared as strings (yyyy-MM-dd or yyyy-MM-ddTHH:mm). */
export interface WallRange {
  begin: string | undefined;
  end: string | undefined;
}

/** Day bounds (yyyy-MM-dd); either may be absent. */
export function dayRange(begin: string | undefined, end: string | undefined): WallRange {
  const b = begin === undefined ? undefined : parseWallBound(begin, false, false);
  const e = end === undefined ? undefined : parseWallBound(end, true, false);
  if (begin !== undefined && b === undefined)
    throw new RequestRuleError(`beginDate must be yyyy-MM-dd, got ${begin}`);
  if (end !== undefined && e === undefined)
    throw new RequestRuleError(`endDate must be yyyy-MM-dd, got ${end}`);
  if (b && e && b > e) throw new RequestRuleError('beginDate is after endDate');
  return { begin: b, end: e };
}

/** Minute bounds (yyyy-MM-ddTHH:mm or yyyy-MM-dd, a date meaning its first or last minute). */
export function minuteRange(begin: string | undefined, end: string | undefined): WallRange {
  const b = begin === undefined ? undefined : parseWallBound(begin, false, true);
  const e = end === undefined ? undefined : parseWallBound(end, true, true);
  if (begin !== undefined && b === undefined)
    throw new RequestRuleError(`beginDate must be yyyy-MM-ddTHH:mm or yyyy-MM-dd, got ${begin}`);
  if (end !== undefined && e === undefined)
    throw new RequestRuleError(`endDate must be yyyy-MM-ddTHH:mm or yyyy-MM-dd, got ${end}`);
  if (b && e && b > e) throw new RequestRuleError('beginDate is after endDate');
  return { begin: b, end: e };
}

/** Whether a wall-clock reading lies in the range (inclusive). */
export function inRange(wall: string, range: WallRange): boolean {
  return (range.begin === undefined || wall >= range.begin) && (range.end === undefined || wall <= range.end);
}
