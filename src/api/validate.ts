import type { z } from 'zod';
import { NonRetryableUpstreamError, RetryableUpstreamError } from './errors.ts';
import { makeStorable } from './storable.ts';

/**
 * A record that failed its schema, or could not be stored at all: kept for quarantine, never
 * allowed to fail its siblings. `raw` is always storable in Postgres jsonb.
 */
export interface RejectedRecord {
  index: number;
  /** Readable zod summary, `path: message; ...`, or why the record cannot be stored. */
  reason: string;
  raw: unknown;
}

/**
 * A record that lands, but only after text Postgres cannot store was repaired: NUL removed, lone
 * surrogates replaced by U+FFFD. `reason` names every changed path
 * (`NUL removed from events.0.description; lone surrogate replaced in header.carrierName`);
 * `raw` is the repaired record, as stored.
 */
export interface RepairedRecord {
  index: number;
  reason: string;
  raw: unknown;
}

/** A list answer: the valid records, the rejected ones, and which of the valid ones were repaired. */
export interface ListResult<T> {
  records: T[];
  rejected: RejectedRecord[];
  /** Records stored with a value Postgres cannot hold removed or replaced. */
  repaired: RepairedRecord[];
}

/** A detail answer: the record, or null when absent or invalid (then `rejected` says why). */
export interface DetailResult<T> {
  record: T | null;
  rejected: RejectedRecord[];
  /** The record was stored with a value Postgres cannot hold removed or replaced. */
  repaired: RepairedRecord[];
}

/** One `path: message` line per zod issue, without echoing values. */
export function issueLines(error: z.ZodError): string[] {
  return error.issues.map(
    (issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(record)'}: ${issue.message}`,
  );
}

/** Summarises zod issues as `path: message; ...`. */
export function summarizeIssues(error: z.ZodError): string {
  return issueLines(error).join('; ');
}

/** One record's verdict: valid (maybe repaired first), or rejected with a storable `raw`. */
type Checked<T> =
  | { ok: true; record: T; repaired: RepairedRecord | undefined }
  | { ok: false; rejected: RejectedRecord };

/** Makes one record storable, then parses it; a repair is also named in a rejection's reason. */
function checkRecord<S extends z.ZodType>(schema: S, raw: unknown, index: number): Checked<z.infer<S>> {
  const storable = makeStorable(raw);
  if (!storable.ok) return { ok: false, rejected: { index, reason: storable.reason, raw: storable.raw } };
  const parsed = schema.safeParse(storable.value);
  const { repairs } = storable;
  if (!parsed.success) {
    const reason = summarizeIssues(parsed.error);
    return {
      ok: false,
      rejected: { index, reason: repairs ? `${reason}; ${repairs}` : reason, raw: storable.value },
    };
  }
  const repaired = repairs ? { index, reason: repairs, raw: storable.value } : undefined;
  return { ok: true, record: parsed.data, repaired };
}

/**
 * Validates a list payload record by record. A null or missing payload fails the call (retryable):
 * read as an empty list it would zero a whole inventory snapshot. Any other non-array fails it
 * too, since no record could be trusted.
 */
export function validateList<S extends z.ZodType>(
  operation: string,
  schema: S,
  payload: unknown,
): ListResult<z.infer<S>> {
  if (payload === null || payload === undefined) {
    throw new RetryableUpstreamError(
      `${operation}: the answer's payload is ${payload === null ? 'null' : 'missing'} where a list was expected (never read as an empty list)`,
      { operation, kind: 'invalid-payload' },
    );
  }
  if (!Array.isArray(payload)) {
    throw new NonRetryableUpstreamError(
      `${operation}: expected an array payload but got ${typeof payload}; the service answered an unexpected shape`,
      { operation, kind: 'invalid-payload' },
    );
  }
  const result: ListResult<z.infer<S>> = { records: [], rejected: [], repaired: [] };
  payload.forEach((raw, index) => {
    const checked = checkRecord(schema, raw, index);
    if (!checked.ok) result.rejected.push(checked.rejected);
    else {
      result.records.push(checked.record);
      if (checked.repaired) result.repaired.push(checked.repaired);
    }
  });
  return result;
}

/** Validates a detail payload; a null payload means "not found" (record null, nothing rejected). */
export function validateDetail<S extends z.ZodType>(schema: S, payload: unknown): DetailResult<z.infer<S>> {
  if (payload === null || payload === undefined) return { record: null, rejected: [], repaired: [] };
  const checked = checkRecord(schema, payload, 0);
  if (!checked.ok) return { record: null, rejected: [checked.rejected], repaired: [] };
  return { record: checked.record, rejected: [], repaired: checked.repaired ? [checked.repaired] : [] };
}

/** What a create or cancel operation answered: a string or strings (meaning not shown in the spec). */
export interface WriteResult {
  messages: string[];
  /** The payload as sent, for callers that know more about it than the spec does. */
  raw: unknown;
}

/**
 * Normalises a write payload. A write already succeeded when we get here, so an unexpected shape is
 * kept in `raw` instead of failing: failing would invite a retry that could apply it twice.
 */
export function readWritePayload(payload: unknown): WriteResult {
  if (typeof payload === 'string') return { messages: [payload], raw: payload };
  if (Array.isArray(payload)) {
    return {
      messages: payload.map((item) => (typeof item === 'string' ? item : JSON.stringify(item))),
      raw: payload,
    };
  }
  return { messages: [], raw: payload };
}
