import { fileURLToPath } from 'node:url';
import { defineProject, type UserWorkspaceConfig } from 'vitest/config';

type TestOptions = NonNullable<UserWorkspaceConfig['test']>;

/**
 * Timeouts for suites whose child processes load Pi (about 1 s each) on a 2-core machine: allow
 * for a busy CI.
 */
export const LOADS_PI = { testTimeout: 60_000, hookTimeout: 60_000 } satisfies TestOptions;

/**
 * No search tool is enabled, so Pi must never download rg/fd: the apps set this, and so do tests.
 */
export const PI_OFFLINE = { env: { PI_OFFLINE: '1' } } satisfies TestOptions;

/** Every temporary file of a test run under one folder, removed when the run ends. */
export const TEMP_ROOT = {
  globalSetup: [fileURLToPath(new URL('./vitest.temp-root.ts', import.meta.url))],
} satisfies TestOptions;

/**
 * A package's test project: `src/` and `test/` test files, sharing one module graph per worker so
 * Pi and zod load once rather than once per file (each test undoes what it changes: temp dirs, env
 * stubs in afterEach); `test` adds to it or overrides it.
 */
export function packageTests(...test: TestOptions[]) {
  return defineProject({
    test: Object.assign(
      { include: ['src/**/*.test.ts', 'test/**/*.test.ts'], isolate: false, ...TEMP_ROOT },
      ...test,
    ),
  });
}
