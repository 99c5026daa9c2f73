import { defineProject } from 'vitest/config';
import { TEMP_ROOT } from '../../vitest.base.ts';

export default defineProject({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The tests run the built CLI and a real daemon as child processes on a shared 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Most of a test is waiting on those processes: two files at once use the second core that
    // vitest's default (one worker on two cores) leaves idle.
    maxWorkers: 2,
    // One module graph per worker, not per file: a file's imports (the test kit, the protocol, zod)
    // load once per worker; each test cleans up what it starts (sandboxes, daemons, endpoints).
    isolate: false,
    ...TEMP_ROOT,
  },
});
