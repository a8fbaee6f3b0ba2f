import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The product compiled once per run, for the tests that start it as a process.
    globalSetup: ['test/support/compiled-product.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Tests share one Redis and spawn worker processes; two cores keep this modest.
    maxWorkers: 2,
  },
});
