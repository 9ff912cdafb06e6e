import { describe, expect, it } from 'vitest';
import { judgeAttempt } from './health.ts';

const now = new Date('2026-03-10T00:00:00Z');
const day = 86_400_000;

describe('endpoint health', () => {
  it('clears the failure run on success', () => {
    expect(judgeAttempt({ failingSince: new Date(0) }, { ok: true, statusCode: 204 }, now)).toEqual({
      failingSince: null,
      disableReason: null,
    });
  });

  it('starts a failure run on the first failure without disabling', () => {
    expect(judgeAttempt({ failingSince: null }, { ok: false, statusCode: 500 }, now)).toEqual({
      failingSince: now,
      disableReason: null,
    });
  });

  it('disables at once on 410 Gone', () => {
    expect(judgeAttempt({ failingSince: null }, { ok: false, statusCode: 410 }, now).disableReason).toMatch(
      /410/,
    );
  });

  it('disables after failing for the configured days, not before', () => {
    const since = new Date(now.getTime() - 5 * day);
    expect(judgeAttempt({ failingSince: since }, { ok: false, statusCode: null }, now).disableReason).toMatch(
      /5 days/,
    );
    const recent = new Date(now.getTime() - 4 * day);
    expect(
      judgeAttempt({ failingSince: recent }, { ok: false, statusCode: 503 }, now).disableReason,
    ).toBeNull();
  });
});
