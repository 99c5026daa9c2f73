import { defineConfig } from 'tsup';

export default defineConfig({
  // The extraction worker is its own file beside the index (`new Worker(url)`).
  entry: { index: 'src/index.ts', 'extract-worker': 'src/documents/extract-worker.ts' },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  // Declarations come from `tsc --build` (the root project graph), which tsup leaves in place.
  clean: ['!**/*.d.ts', '!**/*.d.ts.map'],
});
