/**
 * What createFulfillmentClient uses for an option left out, and what the environment variables
 * default to (src/config/envSchema.ts reads these): one set of defaults for the SDK and the worker.
 */
export const CLIENT_DEFAULTS = {
  /** Per attempt (FULFILLMENT_TIMEOUT_MS). */
  timeoutMs: 30_000,
  /** Requests per second of this process (FULFILLMENT_RATE_LIMIT_RPS). */
  rateLimitRps: 10,
} as const;
