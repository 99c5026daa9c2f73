import { defineConfig } from 'vitest/config';

// The fault-injection suite runs in a module graph of its own; the other files share one per
// worker, so Pi, pdf.js and zod load once rather than once per file.
const FAULTS = 'src/store/content-store-faults.test.ts';

export default defineConfig({
  // Child processes load Pi (about 1 s each) on a 2-core machine: allow for a busy CI.
  test: {
    // Conformance suites read data from outside the repository: `npm run conformance` only.
    exclude: ['**/node_modules/**', '**/*.conformance.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: ['**/node_modules/**', '**/*.conformance.test.ts', FAULTS],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'faults', include: [FAULTS] } },
    ],
  },
});
