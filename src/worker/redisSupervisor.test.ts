import { describe, expect, it } from 'vitest';
import { isConnectionError, MAX_RECONNECT_DELAY_MS, reconnectDelay } from './redisSupervisor.ts';

describe('Redis reconnect policy', () => {
  it('backs off from 250 ms, doubling, up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map((n) => reconnectDelay(n))).toEqual([
      250, 500, 1000, 2000, 4000, 5000, 5000, 5000,
    ]);
    expect(MAX_RECONNECT_DELAY_MS).toBe(5000);
  });

  it('tells connection failures from errors of a command', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6379'), { code: 'ECONNREFUSED' });
    expect(isConnectionError(refused)).toBe(true);
    expect(isConnectionError(new Error('Connection is closed.'))).toBe(true);
    expect(isConnectionError(new Error('Missing key for job 1. moveToFinished'))).toBe(false);
    // ioredis' words for a Sentinel group mid-failover and a Cluster with no node answering.
    expect(
      isConnectionError(
        new Error(
          'All sentinels are unreachable. Retrying from scratch after 10ms. Last error: connect ECONNREFUSED',
        ),
      ),
    ).toBe(true);
    expect(isConnectionError(new Error('None of startup nodes is available'))).toBe(true);
    expect(isConnectionError(new Error('Failed to refresh slots cache.'))).toBe(true);
  });
});
