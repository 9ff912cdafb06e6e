import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './retryAfter.ts';

const NOW = Date.parse('2026-03-08T10:00:00Z');

describe('parseRetryAfter (upstream answers and webhook receivers alike)', () => {
  it('reads delta seconds, whole or fractional', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter(' 120 ', NOW)).toBe(120_000);
    expect(parseRetryAfter('0.5', NOW)).toBe(500);
  });

  it('reads an HTTP date as the time until then, a past one as 0', () => {
    expect(parseRetryAfter('Sun, 08 Mar 2026 10:00:30 GMT', NOW)).toBe(30_000);
    expect(parseRetryAfter('Sun, 08 Mar 2026 09:00:00 GMT', NOW)).toBe(0);
  });

  it('gives undefined for nothing or junk, never a made-up wait', () => {
    for (const value of [null, undefined, '', '  ', 'soon', '1.5.2', '-5', '5 minutes']) {
      expect(parseRetryAfter(value, NOW), String(value)).toBeUndefined();
    }
  });
});
