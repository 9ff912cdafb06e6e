import { DELIVERY_METHOD_CODES, IN_OPEN_STATUS_CODES, WAREHOUSE_CODES } from '../api/records/index.ts';
import { transfersIn } from '../db/schema/transfersIn.ts';
import { tableInfo } from '../sync/columns.ts';
import { addDays, dayOf, daysBetween } from '../sync/plan.ts';
import type { SplitArgs, Window } from '../sync/types.ts';

/**
 * How the open-status window of transfers_in is read in parts when an answer is too large (spec
 * 4.3): by status, then warehouse, then delivery method, then halves of a submitted-date range
 * down to one day. A part covers the stored open INs its filter describes (`coveredWhere`): the
 * ones it did not list have left it and are fetched by key, so an IN is followed until it closes
 * whichever part it was listed in. The due detail requests are fetched by key once per run, in the
 * part that carries `followDue` (the first).
 */

/** The filter of the whole open window: every open status, and the due requests. */
export const OPEN_WINDOW_FILTER: Readonly<Record<string, string>> = {
  statusCodes: IN_OPEN_STATUS_CODES.join(','),
  followDue: '1',
};

/** The earliest submitted date a date range starts from (an earlier stored IN widens it). */
const ORIGIN_DAY = '2000-01-01';

/** The list query of one open part (status aside). */
export interface OpenPartQuery {
  statusCodes: string[];
  warehouseCode?: string;
  deliveryMethodCode?: string;
  beginDate?: string;
  endDate?: string;
}

/** What a part asks the IN list for. */
export function openPartQuery(window: Window): OpenPartQuery {
  const f = window.filter ?? {};
  const out: OpenPartQuery = {
    statusCodes:
      f.statusCode !== undefined ? [f.statusCode] : (f.statusCodes ?? '').split(',').filter(Boolean),
  };
  if (f.warehouseCode !== undefined) out.warehouseCode = f.warehouseCode;
  if (f.deliveryMethodCode !== undefined) out.deliveryMethodCode = f.deliveryMethodCode;
  if (f.beginDate !== undefined) out.beginDate = f.beginDate;
  if (f.endDate !== undefined) out.endDate = f.endDate;
  return out;
}

/**
 * The SQL condition (and its parameters, numbered from `first`) on stored INs that a part covers:
 * its statuses, warehouse, delivery method and submitted day (a draft's creation day, as the list
 * matches a not yet submitted IN).
 */
export function coveredWhere(
  window: Window,
  timezone: string,
  first: number,
): { sql: string; params: unknown[] } {
  const q = openPartQuery(window);
  const params: unknown[] = [q.statusCodes];
  const parts = [`status_code = ANY($${first}::text[])`];
  const add = (condition: (n: number) => string, value: unknown) => {
    params.push(value);
    parts.push(condition(first + params.length - 1));
  };
  if (q.warehouseCode !== undefined) add((n) => `warehouse_code = $${n}`, q.warehouseCode);
  if (q.deliveryMethodCode !== undefined) add((n) => `delivery_method_code = $${n}`, q.deliveryMethodCode);
  if (q.beginDate !== undefined || q.endDate !== undefined) {
    params.push(timezone);
    const day = `(coalesce(submitted_date, creation_date) AT TIME ZONE $${first + params.length - 1})::date`;
    if (q.beginDate !== undefined) add((n) => `${day} >= $${n}::date`, q.beginDate);
    if (q.endDate !== undefined) add((n) => `${day} <= $${n}::date`, q.endDate);
  }
  return { sql: parts.join(' AND '), params };
}

function part(window: Window, filter: Record<string, string>, keepDue: boolean): Window {
  const { followDue: _dropped, ...rest } = window.filter ?? {};
  const due: Record<string, string> = keepDue && window.filter?.followDue ? { followDue: '1' } : {};
  return { ...window, filter: { ...rest, ...filter, ...due } };
}

/** Distinct stored values of `column` among the INs the window covers (besides the known codes). */
async function storedValues(
  { db, scope, timezone }: SplitArgs,
  window: Window,
  column: 'warehouse_code' | 'delivery_method_code',
): Promise<string[]> {
  const covered = coveredWhere(window, timezone, 2);
  const result = await db.query<{ v: string }>(
    `SELECT DISTINCT ${column} AS v FROM ${tableInfo(transfersIn).qualified}
      WHERE supplier_id = $1 AND ${covered.sql} AND ${column} <> '' ORDER BY 1`,
    [scope.id, ...covered.params],
  );
  return result.rows.map((r) => r.v);
}

/**
 * The submitted-day range of a part without one, in two: before the earliest stored IN it covers
 * (from the origin; usually empty) and from there to tomorrow (or a later stored IN), which is then
 * halved. Halving the whole range since the origin would cost a dozen levels of empty parts.
 */
async function datedParts(
  { db, scope, timezone, now }: SplitArgs,
  window: Window,
): Promise<Array<[string, string]>> {
  const covered = coveredWhere(window, timezone, 3);
  const result = await db.query<{ lo: string | null; hi: string | null }>(
    `SELECT to_char(min(d), 'YYYY-MM-DD') AS lo, to_char(max(d), 'YYYY-MM-DD') AS hi FROM (
       SELECT (coalesce(submitted_date, creation_date) AT TIME ZONE $2)::date AS d
         FROM ${tableInfo(transfersIn).qualified} WHERE supplier_id = $1 AND ${covered.sql}) s`,
    [scope.id, timezone, ...covered.params],
  );
  const row = result.rows[0];
  const today = dayOf(now, timezone);
  const tomorrow = addDays(today, 1);
  const lo = row?.lo && row.lo < today ? row.lo : today;
  const hi = row?.hi && row.hi > tomorrow ? row.hi : tomorrow;
  if (lo <= ORIGIN_DAY) return [[lo < ORIGIN_DAY ? lo : ORIGIN_DAY, hi]];
  return [
    [ORIGIN_DAY, addDays(lo, -1)],
    [lo, hi],
  ];
}

/** The parts of an open window whose answer was too large, or null at one status, warehouse, method and day. */
export async function splitOpenWindow(window: Window, args: SplitArgs): Promise<Window[] | null> {
  if (window.kind !== 'filter') return null;
  const f = window.filter ?? {};
  if (f.statusCode === undefined) {
    return openPartQuery(window).statusCodes.map((statusCode, i) => {
      const one = part(window, { statusCode }, i === 0);
      const { statusCodes: _all, ...filter } = one.filter ?? {};
      return { ...one, filter };
    });
  }
  if (f.warehouseCode === undefined) {
    const codes = [...new Set([...WAREHOUSE_CODES, ...(await storedValues(args, window, 'warehouse_code'))])];
    return codes.map((warehouseCode, i) => part(window, { warehouseCode }, i === 0));
  }
  if (f.deliveryMethodCode === undefined) {
    const methods = [
      ...new Set([...DELIVERY_METHOD_CODES, ...(await storedValues(args, window, 'delivery_method_code'))]),
    ];
    return methods.map((deliveryMethodCode, i) => part(window, { deliveryMethodCode }, i === 0));
  }
  if (f.beginDate === undefined || f.endDate === undefined) {
    const ranges = await datedParts(args, window);
    return ranges.map(([beginDate, endDate], i) => part(window, { beginDate, endDate }, i === 0));
  }
  const [begin, end] = [f.beginDate, f.endDate];
  const days = daysBetween(begin, end) + 1;
  if (days < 2) return null;
  const leftLast = addDays(begin, Math.floor(days / 2) - 1);
  return [
    part(window, { beginDate: begin, endDate: leftLast }, true),
    part(window, { beginDate: addDays(leftLast, 1), endDate: end }, false),
  ];
}
