import { defineConfig } from 'vitest/config';
import { LOADS_PI, TEMP_ROOT } from '../../vitest.base.ts';

// The fault-injection suite runs in a module graph of its own; the other files share one per
// worker, so Pi, pdf.js and zod load once rather than once per file.
const FAULTS = 'src/store/content-store-faults.test.ts';

export default defineConfig({
  test: {
    // Conformance suites read data from outside the repository: `npm run conformance` only.
    exclude: ['**/node_modules/**', '**/*.conformance.test.ts'],
    ...LOADS_PI,
    ...TEMP_ROOT,
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
