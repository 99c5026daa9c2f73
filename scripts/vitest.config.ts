import { defineConfig } from 'vitest/config';
import { TEMP_ROOT } from '../vitest.base.ts';

// Tests of the repository's own scripts (the layering check); packages have their own configs.
export default defineConfig({
  test: { root: 'scripts', include: ['**/*.test.ts'], ...TEMP_ROOT },
});
