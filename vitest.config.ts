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
    // Each of the two worker processes runs its test files one after another in one module graph,
    // instead of a fresh process per file that loads the Kubernetes client, Bolt, BullMQ and src/
    // again (2-3 s a file on this 2-core machine, over 180 files). Tests hold no module state of their
    // own between files: each starts its own stack, Redis prefix, fakes and servers, and restores what
    // it changes of the process (environment variables, fetch, fake timers); the few values a test adds
    // to the logger's known secrets stay known, and no later test prints them. Measured on test/core,
    // catalogue, commands, values and doctor (33 files), back to back: 153 s and 111 s isolated,
    // 73 s and 82 s not (the import phase 100 s and 74 s, then 31 s and 28 s).
    isolate: false,
  },
});
