import { defineConfig } from 'vitest/config';

// Tests of the repository's own scripts (the layering check); packages have their own configs.
export default defineConfig({
  test: { root: 'scripts', include: ['**/*.test.ts'] },
});
