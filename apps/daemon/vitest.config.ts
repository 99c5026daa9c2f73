import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Test files share one module graph per worker, so Pi and zod load once rather than once per
    // file (each test undoes what it changes: temp dirs, env stubs in afterEach).
    isolate: false,
    // The conformance test runs the built daemon as a child process on a shared 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
