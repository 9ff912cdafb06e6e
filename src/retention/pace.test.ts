import { describe, expect, it } from 'vitest';
import { REST_PER_BUSY, restAfterBatch } from './pace.ts';

describe('restAfterBatch', () => {
  it('rests the configured pause after a quick batch', () => {
    expect(restAfterBatch(5, 100)).toBe(100);
  });

  it('rests longer after a slow batch, keeping the pruner busy at most a tenth of the time', () => {
    const batchMs = 120;
    const rest = restAfterBatch(batchMs, 100);
    expect(rest).toBe(1080);
    expect(batchMs / (batchMs + rest)).toBeLessThanOrEqual(1 / (1 + REST_PER_BUSY));
  });

  it('does not rest at all with a pause of 0 (full speed)', () => {
    expect(restAfterBatch(500, 0)).toBe(0);
  });
});
