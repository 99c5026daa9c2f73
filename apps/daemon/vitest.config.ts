import { packageTests } from '../../vitest.base.ts';

export default packageTests({
  // The conformance test runs the built daemon as a child process on a shared 2-core machine.
  testTimeout: 60_000,
  hookTimeout: 30_000,
});
