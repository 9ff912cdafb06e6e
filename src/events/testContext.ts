import type { DeriveContext } from './types.ts';

/** A fixed derive context for unit tests. */
export function testContext(overrides: Partial<DeriveContext> = {}): DeriveContext {
  return {
    detectedAt: new Date('2026-03-02T10:00:00Z'),
    timezone: 'America/Los_Angeles',
    thresholds: { lowStockThreshold: 10, lowStockThresholdsBySku: { RARE: 2 } },
    scope: 'SUP1',
    ...overrides,
  };
}
