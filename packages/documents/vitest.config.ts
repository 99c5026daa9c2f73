import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
    // Extraction runs in child processes (PDF.js loads in each): allow for a busy 2-core machine.
    testTimeout: 60_000,
    // Test files share one module graph per worker (each test undoes what it changes).
    isolate: false,
  },
});
