import { describe, expect, it } from 'vitest';
import { classifyAnswer } from '../../src/api/classify.ts';
import { UpstreamTimeoutError } from '../../src/api/errors.ts';

/**
 * A session or token that timed out is no query that took too long: splitting the window cannot
 * help, and the run would end, after halving its window down to the smallest slice, with "the
 * upstream's own query times out even for the smallest window: ask its operator, or lower
 * minWindowSize", which sends the operator the wrong way. Such an answer stays what it was before
 * upstream timeouts were recognised: a final failure that quotes the service's message.
 */

const answer = (status: number, message: string) => ({
  operation: 'GET Inventories/Owned',
  status,
  retryAfter: null,
  body: JSON.stringify({ isSuccess: false, message, payload: null }),
  now: Date.parse('2026-03-08T10:00:00Z'),
});

describe('a session or token that timed out', () => {
  it.each([
    [200, 'Your session has timed out. Please log in again.'],
    [403, 'Session timed out'],
    [200, 'Access token timed out'],
    [200, 'The session timeout expired; sign in again'],
  ])('HTTP %i saying "%s" is not an upstream query timeout', (status, message) => {
    const result = classifyAnswer(answer(status, message));
    expect(result.ok || result.error).not.toBeInstanceOf(UpstreamTimeoutError);
  });

  it('a query that timed out in a session is still a timeout', () => {
    const result = classifyAnswer(
      answer(200, 'Timeout expired. The timeout period elapsed prior to completion of the operation.'),
    );
    expect(result.ok || result.error).toBeInstanceOf(UpstreamTimeoutError);
  });
});
