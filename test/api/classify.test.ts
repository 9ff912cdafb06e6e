import { describe, expect, it } from 'vitest';
import { classifyAnswer, parseRetryAfter } from '../../src/api/classify.ts';
import {
  NonRetryableUpstreamError,
  RetryableUpstreamError,
  scrubSecrets,
  UnauthorizedError,
} from '../../src/api/errors.ts';

const NOW = Date.parse('2026-03-08T10:00:00Z');
const answer = (status: number, body: unknown, retryAfter: string | null = null) => ({
  operation: 'GET Inventories/Owned',
  status,
  retryAfter,
  body: typeof body === 'string' ? body : JSON.stringify(body),
  now: NOW,
});
const envelope = (isSuccess: boolean, message: string | null = null, payload: unknown = []) => ({
  isSuccess,
  message,
  payload,
});

describe('parseRetryAfter', () => {
  it('reads delta seconds and HTTP dates', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter('0.5', NOW)).toBe(500);
    expect(parseRetryAfter('Sun, 08 Mar 2026 10:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sun, 08 Mar 2026 09:00:00 GMT', NOW)).toBe(0);
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter(null, NOW)).toBeUndefined();
  });
});

describe('classifyAnswer', () => {
  it('a 2xx envelope with isSuccess true is the payload', () => {
    expect(classifyAnswer(answer(200, envelope(true, 'fine', [1])))).toEqual({
      ok: true,
      payload: [1],
      message: 'fine',
    });
  });

  it.each([408, 429, 500, 502, 503, 504])('HTTP %i is retryable', (status) => {
    const result = classifyAnswer(answer(status, 'oops'));
    expect(result.ok || result.error).toBeInstanceOf(RetryableUpstreamError);
  });

  it.each([400, 403, 404, 409, 422])('HTTP %i is not retryable', (status) => {
    const result = classifyAnswer(answer(status, envelope(false, 'bad')));
    expect(result.ok || result.error).toBeInstanceOf(NonRetryableUpstreamError);
  });

  it('401 is UnauthorizedError', () => {
    const result = classifyAnswer(answer(401, ''));
    expect(result.ok || result.error).toBeInstanceOf(UnauthorizedError);
  });

  it('429 carries Retry-After as a date', () => {
    const result = classifyAnswer(answer(429, '', 'Sun, 08 Mar 2026 10:01:00 GMT'));
    expect(result.ok || (result.error as RetryableUpstreamError).retryAfterMs).toBe(60_000);
  });

  it('isSuccess false with 200 fails; retryable only when the message says so', () => {
    const plain = classifyAnswer(answer(200, envelope(false, 'Supplier not found')));
    expect(plain.ok || plain.error).toBeInstanceOf(NonRetryableUpstreamError);
    for (const message of ['Please try again', 'Retry later', 'Temporarily unavailable']) {
      const retry = classifyAnswer(answer(200, envelope(false, message)));
      expect(retry.ok || retry.error).toBeInstanceOf(RetryableUpstreamError);
    }
  });

  it('a non-JSON or malformed envelope is a non-retryable failure', () => {
    for (const body of ['not json', '[]', '{"isSuccess":"yes"}', '{"payload":[]}']) {
      const result = classifyAnswer(answer(200, body));
      expect(result.ok).toBe(false);
      expect(result.ok || result.error.kind).toBe('invalid-body');
    }
  });
});

describe('scrubSecrets', () => {
  it('removes known secrets, bearer tokens and URL passwords', () => {
    const text = 'Bearer abc.def token=xyz123 at https://user:hunter22@host/x and s3cr3t-value';
    const out = scrubSecrets(text, ['s3cr3t-value']);
    for (const secret of ['abc.def', 'xyz123', 'hunter22', 's3cr3t-value']) expect(out).not.toContain(secret);
  });
});
