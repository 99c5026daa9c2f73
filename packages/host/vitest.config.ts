import { defineProject } from 'vitest/config';

export default defineProject({
  // Child processes load Pi (about 1 s each) on a 2-core machine: allow for a busy CI.
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Test files share one module graph per worker, so Pi and zod load once rather than once per
    // file (each test undoes what it changes: temp dirs, env stubs in afterEach).
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // No search tool is enabled, so Pi must never download rg/fd: the apps set this, and so do tests.
    env: { PI_OFFLINE: '1' },
  },
});
