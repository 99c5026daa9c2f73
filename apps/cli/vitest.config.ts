import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The tests run the built CLI and a real daemon as child processes on a shared 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
