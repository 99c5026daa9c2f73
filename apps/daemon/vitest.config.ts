import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The conformance test runs the built daemon as a child process on a shared 2-core machine.
    testTimeout: 60_000,
    hookTimeout: 30_000,
  },
});
