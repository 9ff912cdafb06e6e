import { z } from 'zod';
import { DATE_TIME_PATTERN, isUnsetDateTime } from '../../time/parse.ts';

/**
 * Field builders for upstream records. The spec types fields but rarely states nullability, so a
 * field is nullable unless the spec marks it non-null: a null is data, a wrong type is a rejection.
 */

export const text = () => z.string().nullish();
export const requiredText = () => z.string();
/** An identifier that the record cannot be stored without. */
export const keyText = () => z.string().min(1);
/** Range of a Postgres `integer` column (int32), where quantities, line numbers and counts are stored. */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;
const OUTSIDE_INT32 = `outside the range of its integer column (${INT32_MIN}..${INT32_MAX})`;
const int32 = () => z.number().int().min(INT32_MIN, OUTSIDE_INT32).max(INT32_MAX, OUTSIDE_INT32);

/** A whole number stored in an `integer` column: a value outside int32 is a rejection, not a failed window. */
export const int = () => int32().nullish();
export const requiredInt = () => int32();
/**
 * A whole number stored in a `bigint` column (ids). zod's `int()` already stops at the safe-integer
 * range (±2^53-1), inside int64 and the most a JSON number carries exactly.
 */
export const bigInt = () => z.number().int().nullish();
export const requiredBigInt = () => z.number().int();
/** A spec `number` (numeric column); Infinity or NaN (JSON's 1e400 parses to Infinity) is rejected by zod. */
export const num = () => z.number().nullish();
export const bool = () => z.boolean().nullish();
export const requiredBool = () => z.boolean();
export const dateTime = () => z.string().regex(DATE_TIME_PATTERN, 'expected an ISO 8601 date-time').nullish();
/** A date-time the spec marks non-null: "not set" (0001-01-01) is no value, so the record is rejected. */
export const requiredDateTime = () =>
  z
    .string()
    .regex(DATE_TIME_PATTERN, 'expected an ISO 8601 date-time')
    .refine((value) => !isUnsetDateTime(value), 'a required date-time is "not set" (0001-01-01)');

/**
 * An enumeration the spec lists as "one of": kept as an open string, because the real service may
 * add values, and an unknown value must not make a record vanish. The known values are exported
 * for documentation, simulators and event rules.
 */
export const openEnum = <const T extends readonly string[]>(_known: T) => z.string().nullish();

/** A list member that the spec allows to be null. */
export const nullableArray = <T extends z.ZodType>(item: T) => z.array(item).nullish();

/** Objects keep members the spec does not detail: they travel on in `raw`, never dropped. */
export const record = <T extends z.ZodRawShape>(shape: T) => z.looseObject(shape);
