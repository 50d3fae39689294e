import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx', 'engine/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // Browser scenarios run many steps; on a loaded 2-core machine they need more than the default.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
