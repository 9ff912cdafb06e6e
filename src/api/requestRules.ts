import type { z } from 'zod';
import { RequestRuleError } from './errors.ts';
import { holdAtLocationQuerySchema } from './records/holdAtLocation.ts';
import { wineProductCreateSchema } from './records/product.ts';
import { transferInCreateSchema } from './records/transferIn.ts';
import { issueLines } from './validate.ts';

/**
 * Request-side rules of spec sections 7.4 and 8, checked before any network call. Each `check*`
 * returns the list of problems (empty when fine); `enforce` turns problems into a RequestRuleError.
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_MINUTE = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):([0-5]\d)$/;

/** Throws RequestRuleError when there are problems. */
export function enforce(operation: string, problems: readonly string[]): void {
  if (problems.length > 0) throw new RequestRuleError(operation, problems);
}

/** A problem when `value` has fewer than `min` characters (spec 8 "min length"). */
export function checkMinLength(field: string, value: string | undefined, min: number): string[] {
  if (typeof value !== 'string' || value.length < min) {
    return [`${field} needs at least ${min} character${min === 1 ? '' : 's'}`];
  }
  return [];
}

/** A problem when `value` is not a real calendar date in one of the allowed wire formats. */
export function checkWireDate(field: string, value: string | undefined, allowMinutes = false): string[] {
  if (value === undefined) return [];
  const match = DATE.exec(value) ?? (allowMinutes ? DATE_MINUTE.exec(value) : null);
  const format = allowMinutes ? "yyyy-MM-dd or yyyy-MM-dd'T'HH:mm" : 'yyyy-MM-dd';
  if (!match) return [`${field} must be ${format}, got "${value}"`];
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return [`${field} is not a calendar date: "${value}"`];
  }
  return [];
}

/** Both bounds valid, and begin not after end (compared as wire strings of the same format). */
export function checkDateRange(
  begin: string | undefined,
  end: string | undefined,
  allowMinutes = false,
): string[] {
  const problems = [
    ...checkWireDate('beginDate', begin, allowMinutes),
    ...checkWireDate('endDate', end, allowMinutes),
  ];
  if (problems.length === 0 && begin && end && begin.length === end.length && begin > end) {
    problems.push(`beginDate ${begin} is after endDate ${end}`);
  }
  return problems;
}

/** The rule of the scoped list operations: a scope id of 2 characters or more, and a valid date range. */
export function checkScopedRange(
  field: string,
  id: string | undefined,
  begin: string | undefined,
  end: string | undefined,
): string[] {
  return [...checkMinLength(field, id, 2), ...checkDateRange(begin, end)];
}

function fromSchema(schema: z.ZodType, value: unknown): string[] {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : issueLines(parsed.error);
}

/** Wine product create (spec 2.3, 8): lengths, US only. */
export function checkWineProduct(body: unknown): string[] {
  return fromSchema(wineProductCreateSchema, body);
}

/** IN create (spec 2.6, 4.3, 7.4): lengths, and the PROVIDER_PICKUP / CLIENT_DROPOFF pickup-site rule. */
export function checkTransferInCreate(body: unknown): string[] {
  return fromSchema(transferInCreateSchema, body);
}

/** Hold-at locations query bounds (spec 4.6, 8). */
export function checkHoldAtLocations(query: unknown): string[] {
  return fromSchema(holdAtLocationQuerySchema, query);
}

/** Owned inventory (spec 4.5, 7.4): supplierId min 2; warehouse and SKU are alternatives. */
export function checkOwnedInventory(query: {
  supplierId: string;
  warehouseCode?: string;
  sku?: string;
}): string[] {
  const problems = checkMinLength('supplierId', query.supplierId, 2);
  if (query.warehouseCode && query.sku) {
    problems.push('warehouseCode and sku cannot be used together; query one warehouse or one SKU');
  }
  return problems;
}

/** Packing slip IDs must be integers. */
export function checkPackingSlipIds(ids: readonly unknown[]): string[] {
  const bad = ids.filter((id) => !Number.isSafeInteger(id));
  return bad.length > 0
    ? [`packingSlipIDs must be integers, got ${bad.map((b) => JSON.stringify(b)).join(', ')}`]
    : [];
}

/** Path parameters must be non-empty: an empty segment would address a different resource. */
export function checkPathParams(params: Readonly<Record<string, string | undefined>>): string[] {
  return Object.entries(params)
    .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
    .map(([name]) => `${name} must not be empty`);
}
