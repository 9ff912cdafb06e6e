import { defineConfig } from 'vitest/config';
import LongFirstSequencer from './test/setup/longFirstSequencer.ts';

/**
 * Files that measure a rate or compare two rates (a limiter's throughput, an endpoint's delivery rate
 * alone and beside hanging ones): they run after the others, one at a time, so another test file's
 * CPU never becomes their measurement. The realtime freshness test is not among them: its latency is
 * set by the polling interval (tens of seconds), not by CPU, and it runs first beside the others.
 */
const MEASURES_RATES = [
  'test/ratelimit/laggingEventLoop.test.ts',
  'test/ratelimit/laggingWeek.test.ts',
  'test/ratelimit/sharedRateLimiter.test.ts',
  'test/ratelimit/twoWorkers.test.ts',
  'test/redis/cluster.test.ts',
  'test/webhooks/isolation.test.ts',
  'test/webhooks/limits.test.ts',
];

export default defineConfig({
  test: {
    // Slow scenarios (full simulated weeks at volume) only run with SLOW_TESTS=1.
    // A ceiling that only catches a hang: the heaviest files (simulated weeks, the demo) take 20-50 s
    // beside two others on CI's 2 cores, and more with CPU-bound work beside the suite.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    globalSetup: ['test/setup/global.ts'],
    // The longest files start first (vitest reads the sequencer from the root config only).
    sequence: { sequencer: LongFirstSequencer },
    pool: 'forks',
    reporters: ['default', './test/setup/summaryReporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'suite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'jobs/**/*.test.ts'],
          exclude: ['**/node_modules/**', ...MEASURES_RATES],
          // Four files at once on CI's 2 cores (vitest's default is cores - 1: one at a time). Most
          // files wait on Postgres, Redis, child processes and timers, so four overlap well; each has
          // its own database and Redis prefix.
          maxWorkers: 4,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'rates',
          include: MEASURES_RATES,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
