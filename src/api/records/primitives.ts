import { z } from 'zod';

/**
 * Field builders for upstream records. The spec types fields but rarely states nullability, so a
 * field is nullable unless the spec marks it non-null: a null is data, a wrong type is a rejection.
 */

/** ISO 8601 date or date-time, with or without an offset (an offset-less value is Pacific wall-clock time). */
export const ISO_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/;

export const text = () => z.string().nullish();
export const requiredText = () => z.string();
/** An identifier that the record cannot be stored without. */
export const keyText = () => z.string().min(1);
export const int = () => z.number().int().nullish();
export const requiredInt = () => z.number().int();
export const num = () => z.number().nullish();
export const bool = () => z.boolean().nullish();
export const requiredBool = () => z.boolean();
export const dateTime = () => z.string().regex(ISO_DATE_TIME, 'expected an ISO 8601 date-time').nullish();
export const requiredDateTime = () => z.string().regex(ISO_DATE_TIME, 'expected an ISO 8601 date-time');

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
