import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['core/src/**/*.test.ts', 'plugins/*/src/**/*.test.ts', 'cli/src/**/*.test.ts', 'ui-shell/src/**/*.test.ts', 'ui-plugins/*/src/**/*.test.ts', 'tests/**/*.test.ts'],
    globalSetup: ['./core/src/testing/global-setup.ts'],
    pool: 'forks',
    // Two cores: two workers keep PostgreSQL, Redis and the app from starving each other.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    teardownTimeout: 30_000,
    reporters: ['default'],
  },
});
