import { defineConfig } from 'tsup';

export default defineConfig({
  // The store (`.`, no Pi), the Pi tools (`./tools`) and the search worker, loaded by file
  // (search/search-pool.ts). The entries share their modules' chunks: one ContentStore class.
  entry: {
    index: 'src/index.ts',
    'tools-entry': 'src/tools-entry.ts',
    'search-worker': 'src/search/search-worker.ts',
  },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  // Declarations come from `tsc --build` (the root project graph), which tsup leaves in place.
  clean: ['!**/*.d.ts', '!**/*.d.ts.map'],
});
