import { defineProject } from 'vitest/config';
import { TEMP_ROOT } from '../../vitest.base.ts';

export default defineProject({
  test: {
    // `src/*.test.ts`: the page's logic in Node, no browser. `test/*.test.ts`: the built page in a
    // headless Chromium against real daemons started with the built CLI (apps/cli must be built).
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // As in apps/cli: a browser test mostly waits on its daemon and Chromium, so two files at once
    // use the second core.
    maxWorkers: 2,
    // One module graph per worker, not per file: a file's imports (the test kit, the protocol, zod)
    // load once per worker; each test cleans up what it starts (sandboxes, daemons, endpoints).
    isolate: false,
    ...TEMP_ROOT,
  },
});
