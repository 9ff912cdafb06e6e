import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'jobs/**/*.test.ts'],
    // Slow scenarios (full simulated weeks at volume) only run with SLOW_TESTS=1.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    globalSetup: ['test/setup/global.ts'],
    pool: 'forks',
    reporters: ['default', './test/setup/summaryReporter.ts'],
  },
});
