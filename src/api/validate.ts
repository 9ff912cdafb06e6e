import type { z } from 'zod';
import { NonRetryableUpstreamError } from './errors.ts';

/** A record that failed its schema: kept whole for quarantine, never allowed to fail its siblings. */
export interface RejectedRecord {
  index: number;
  /** Readable zod summary, `path: message; ...`. */
  reason: string;
  raw: unknown;
}

/** A list answer: the valid records and the rejected ones. */
export interface ListResult<T> {
  records: T[];
  rejected: RejectedRecord[];
  /** Records stored with a value Postgres cannot hold removed or replaced. */
  repaired?: RejectedRecord[];
}

/** A detail answer: the record, or null when absent or invalid (then `rejected` says why). */
export interface DetailResult<T> {
  record: T | null;
  rejected: RejectedRecord[];
  /** The record was stored with a value Postgres cannot hold removed or replaced. */
  repaired?: RejectedRecord[];
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

/**
 * Validates a list payload record by record. A null payload is read as an empty list (services often
 * answer "nothing" that way); any other non-array fails the call, since no record could be trusted.
 */
export function validateList<S extends z.ZodType>(
  operation: string,
  schema: S,
  payload: unknown,
): ListResult<z.infer<S>> {
  if (payload === null || payload === undefined) return { records: [], rejected: [] };
  if (!Array.isArray(payload)) {
    throw new NonRetryableUpstreamError(
      `${operation}: expected an array payload but got ${typeof payload}; the service answered an unexpected shape`,
      { operation, kind: 'invalid-payload' },
    );
  }
  const result: ListResult<z.infer<S>> = { records: [], rejected: [] };
  payload.forEach((raw, index) => {
    const parsed = schema.safeParse(raw);
    if (parsed.success) result.records.push(parsed.data);
    else result.rejected.push({ index, reason: summarizeIssues(parsed.error), raw });
  });
  return result;
}

/** Validates a detail payload; a null payload means "not found" (record null, nothing rejected). */
export function validateDetail<S extends z.ZodType>(schema: S, payload: unknown): DetailResult<z.infer<S>> {
  if (payload === null || payload === undefined) return { record: null, rejected: [] };
  const parsed = schema.safeParse(payload);
  if (parsed.success) return { record: parsed.data, rejected: [] };
  return { record: null, rejected: [{ index: 0, reason: summarizeIssues(parsed.error), raw: payload }] };
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
