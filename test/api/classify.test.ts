import { describe, expect, it } from 'vitest';
import { classifyAnswer } from '../../src/api/classify.ts';
import {
  AnswerTooLargeError,
  NonRetryableUpstreamError,
  RetryableUpstreamError,
  scrubSecrets,
  UnauthorizedError,
  UpstreamTimeoutError,
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
    for (const message of [
      'Please try again',
      'Please retry later',
      'Retry later',
      'Temporarily unavailable',
      'Service temporarily unavailable, try again in a minute',
    ]) {
      const retry = classifyAnswer(answer(200, envelope(false, message)));
      expect(retry.ok || retry.error, message).toBeInstanceOf(RetryableUpstreamError);
    }
  });

  it.each([
    'Do not retry',
    "Invalid supplier; don't retry this request",
    'This request cannot be retried',
    'Request is not retryable',
    'Order already cancelled, should not be retried',
  ])('isSuccess false saying "%s" is not retryable', (message) => {
    const result = classifyAnswer(answer(200, envelope(false, message)));
    expect(result.ok || result.error).toBeInstanceOf(NonRetryableUpstreamError);
    expect(result.ok || result.error).not.toBeInstanceOf(AnswerTooLargeError);
  });

  it.each(['Too many requests', 'Rate limit exceeded', 'Request was throttled, slow down'])(
    'isSuccess false saying "%s" is rate limiting: retryable, never too large',
    (message) => {
      const result = classifyAnswer(answer(200, envelope(false, message)));
      expect(result.ok || result.error).toBeInstanceOf(RetryableUpstreamError);
      expect(result.ok || result.error.kind).toBe('rate-limited');
    },
  );

  // Words, not windows of characters: a negation must bear on the retry itself, and "rate limit"
  // is not found inside "moderate limit".
  it.each([
    'Service not available please retry later',
    'Service not available, please retry later',
    'Not available at the moment. Please try again',
    'No stock data yet; retrying later may help',
  ])('isSuccess false saying "%s" is retryable', (message) => {
    const result = classifyAnswer(answer(200, envelope(false, message)));
    expect(result.ok || result.error).toBeInstanceOf(RetryableUpstreamError);
    expect(result.ok || result.error.kind).not.toBe('rate-limited');
  });

  it.each([
    'Request moderate limit exceeded',
    'Country again not supported',
    'Invalid entry: retrofit code unknown',
    'Contemporary wines only',
  ])('isSuccess false saying "%s" is final: no retry word, no throttling word in it', (message) => {
    const result = classifyAnswer(answer(200, envelope(false, message)));
    expect(result.ok || result.error).toBeInstanceOf(NonRetryableUpstreamError);
  });

  it.each([
    'Never retry this call',
    'No retries: the supplier is closed',
    'Will not be retried automatically',
  ])('isSuccess false saying "%s" is not retryable', (message) => {
    const result = classifyAnswer(answer(200, envelope(false, message)));
    expect(result.ok || result.error).toBeInstanceOf(NonRetryableUpstreamError);
  });

  it('a 429 saying "Too many requests" is rate limiting with its Retry-After, never too large', () => {
    const result = classifyAnswer(answer(429, envelope(false, 'Too many requests', null), '30'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(RetryableUpstreamError);
    expect(result.error).not.toBeInstanceOf(AnswerTooLargeError);
    expect(result.error.kind).toBe('rate-limited');
    expect((result.error as RetryableUpstreamError).retryAfterMs).toBe(30_000);
  });

  it('a 413 is too large, whatever it says', () => {
    for (const body of ['', '<html>Payload Too Large</html>', JSON.stringify(envelope(false, 'nope'))]) {
      const result = classifyAnswer(answer(413, body));
      expect(result.ok || result.error).toBeInstanceOf(AnswerTooLargeError);
      expect(result.ok || result.error.kind).toBe('too-large');
    }
  });

  it.each([
    [200, 'Request too large: narrow the date range'],
    [400, 'Date range too large'],
    [422, 'Too many records for one request, narrow the range'],
  ])('HTTP %i saying "%s" is too large', (status, message) => {
    const result = classifyAnswer(answer(status, envelope(false, message)));
    expect(result.ok || result.error).toBeInstanceOf(AnswerTooLargeError);
    expect(result.ok || result.error.message).toContain(message);
  });

  // What services behind SQL Server and .NET answer when their own query or wait timed out: the
  // call is too heavy, so it is retried and its window split like a client timeout.
  it.each([
    [200, 'Timeout expired. The timeout period elapsed prior to completion of the operation.'],
    [
      200,
      'Timeout expired.  The timeout period elapsed prior to completion of the operation or the server is not responding.',
    ],
    [
      200,
      'Execution Timeout Expired.  The timeout period elapsed prior to completion of the operation or the server is not responding.',
    ],
    [200, 'The operation has timed out.'],
    [200, 'Query timeout'],
    [200, 'query timeout expired while reading Inventories'],
    [200, 'The wait operation timed out.'],
    [200, 'System.Data.SqlClient.SqlException (0x80131904): Execution Timeout Expired.'],
    [200, 'ERROR: canceling statement due to statement timeout'],
    [500, 'Timeout expired. The timeout period elapsed prior to completion of the operation.'],
    [400, 'The operation has timed out.'],
  ])('HTTP %i saying "%s" is a timeout: retried, then split', (status, message) => {
    const result = classifyAnswer(answer(status, envelope(false, message, null)));
    expect(result.ok || result.error).toBeInstanceOf(UpstreamTimeoutError);
    expect(result.ok || result.error.kind).toBe('timeout');
    expect(result.ok || result.error.message).toContain(message.trim());
  });

  // A word about time is not a timeout: field names, dates, negations.
  it.each([
    'Invalid value for field timeoutSeconds',
    "The field 'messageTime' is not a valid date",
    'deliveryTime out of range',
    'Ship time out of range for this carrier',
    'Runtime error in Inventories',
    'The lifetime of the token is over',
    'Invalid date time: 2026-13-01T00:00',
    'The request has not timed out but the supplier is unknown',
    'No timeout expired; the supplier is unknown',
  ])('isSuccess false saying "%s" is not a timeout', (message) => {
    const result = classifyAnswer(answer(200, envelope(false, message)));
    expect(result.ok || result.error).not.toBeInstanceOf(UpstreamTimeoutError);
    expect(result.ok || result.error).toBeInstanceOf(NonRetryableUpstreamError);
  });

  it('a throttling message that mentions a timeout is still throttling: wait, never split', () => {
    const result = classifyAnswer(
      answer(200, envelope(false, 'Too many requests: wait for the rate limit timeout to expire')),
    );
    expect(result.ok || result.error.kind).toBe('rate-limited');
  });

  it('a 200 that is not JSON (an HTML maintenance page) or not an envelope is retryable', () => {
    for (const body of [
      '<html><body>Down for maintenance</body></html>',
      '[]',
      '{"isSuccess":"yes"}',
      '{"payload":[]}',
    ]) {
      const result = classifyAnswer(answer(200, body));
      expect(result.ok || result.error, body).toBeInstanceOf(RetryableUpstreamError);
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
