import { defineConfig } from 'tsup';

export default defineConfig({
  // The search worker is its own entry, loaded by file (search/search-pool.ts).
  entry: {
    index: 'src/index.ts',
    // Not exported by package.json: loaded by file by the crash tests' children.
    store: 'src/store-entry.ts',
    'search-worker': 'src/search/search-worker.ts',
  },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  // Declarations come from `tsc --build` (the root project graph), which tsup leaves in place.
  clean: ['!**/*.d.ts', '!**/*.d.ts.map'],
});
