import { defineConfig } from 'tsup';

export default defineConfig({
  // The extraction process's entry is its own file, loaded by file (extraction-process.ts) through
  // the package's `./worker` export.
  entry: { index: 'src/index.ts', 'extract-worker': 'src/extract-worker.ts' },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  // Declarations come from `tsc --build` (the root project graph), which tsup leaves in place.
  clean: ['!**/*.d.ts', '!**/*.d.ts.map'],
});
