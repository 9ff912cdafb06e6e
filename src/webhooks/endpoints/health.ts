/** Endpoints failing without a single success for this long are disabled (default 5 days). */
export const DEFAULT_DISABLE_AFTER_MS = 5 * 24 * 3_600_000;

export interface EndpointHealth {
  /** When the current unbroken run of failures began; null while healthy. */
  failingSince: Date | null;
}

export interface HealthVerdict {
  failingSince: Date | null;
  /** Set when the endpoint must be disabled, with the reason to store and show. */
  disableReason: string | null;
}

/**
 * The endpoint's health after one attempt: a success clears the failure run; HTTP 410 Gone
 * disables at once; failures for `disableAfterMs` without any success disable too. Pure.
 */
export function judgeAttempt(
  health: EndpointHealth,
  attempt: { ok: boolean; statusCode: number | null },
  now: Date,
  disableAfterMs = DEFAULT_DISABLE_AFTER_MS,
): HealthVerdict {
  if (attempt.ok) return { failingSince: null, disableReason: null };
  const failingSince = health.failingSince ?? now;
  if (attempt.statusCode === 410) {
    return { failingSince, disableReason: 'receiver answered 410 Gone' };
  }
  if (now.getTime() - failingSince.getTime() >= disableAfterMs) {
    const days = Math.round(disableAfterMs / 86_400_000);
    return { failingSince, disableReason: `failing without a success for ${days} days or more` };
  }
  return { failingSince, disableReason: null };
}
