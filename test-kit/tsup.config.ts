import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  // Declarations come from `tsc --build` (the root project graph), which tsup leaves in place.
  clean: ['!**/*.d.ts', '!**/*.d.ts.map'],
});
