import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Test files share one module graph per worker, so Pi and zod load once rather than once per
    // file (each test undoes what it changes: temp dirs, env stubs in afterEach).
    isolate: false,
  },
});
