import { defineProject } from 'vitest/config';

// `npm run conformance`: third-party conformance suites read in place (see the root README).
export default defineProject({
  test: {
    include: ['src/**/*.conformance.test.ts'],
    testTimeout: 60_000,
  },
});
