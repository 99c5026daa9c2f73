import { defineProject } from 'vitest/config';

export default defineProject({
  // Child processes load Pi (about 1 s each) on a 2-core machine: allow for a busy CI.
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Conformance suites read data from outside the repository: `npm run conformance` only.
    exclude: ['**/node_modules/**', '**/*.conformance.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
