import { describe, expect, it } from 'vitest';
import { classifyAnswer } from '../../src/api/classify.ts';
import { UpstreamTimeoutError } from '../../src/api/errors.ts';

/**
 * SQL Server's lock timeout (error 1222) reads "Lock request time out period exceeded.", with
 * "time out" in two words: an upstream whose query waited too long on a lock. It is one of the
 * messages a .NET service behind SQL Server answers when a query is too heavy (issue 24 item 2), so
 * it is a timeout (retried, then its window split), not a final failure of the run.
 */

const answer = (status: number, message: string) => ({
  operation: 'GET Inventories/Owned',
  status,
  retryAfter: null,
  body: JSON.stringify({ isSuccess: false, message, payload: null }),
  now: Date.parse('2026-03-08T10:00:00Z'),
});

describe('an upstream lock timeout', () => {
  it.each([
    [200, 'Lock request time out period exceeded.'],
    [500, 'Lock request time out period exceeded.'],
    [200, 'System.Data.SqlClient.SqlException (0x80131904): Lock request time out period exceeded.'],
    [200, 'The query time out expired'],
  ])('HTTP %i saying "%s" is a timeout: retried, then split', (status, message) => {
    const result = classifyAnswer(answer(status, message));
    expect(result.ok || result.error).toBeInstanceOf(UpstreamTimeoutError);
  });

  it.each(['Ship time out of range for this carrier', 'Pick-up time out of hours for this warehouse'])(
    '"%s" is still no timeout',
    (message) => {
      const result = classifyAnswer(answer(200, message));
      expect(result.ok || result.error).not.toBeInstanceOf(UpstreamTimeoutError);
    },
  );
});
