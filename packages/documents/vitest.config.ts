import { packageTests } from '../../vitest.base.ts';

export default packageTests({
  include: ['src/**/*.test.ts', 'examples/**/*.test.ts'],
  // Extraction runs in child processes (PDF.js loads in each): allow for a busy 2-core machine.
  testTimeout: 60_000,
});
