import { defineConfig } from 'tsup';

export default defineConfig({
  // The workers are their own entries, loaded by file: the search worker (search/search-pool.ts)
  // and the extraction process (documents/extraction-process.ts).
  entry: {
    index: 'src/index.ts',
    // Not exported by package.json: loaded by file by the crash tests' children.
    store: 'src/store-entry.ts',
    'search-worker': 'src/search/search-worker.ts',
    'extract-worker': 'src/documents/extract-worker.ts',
  },
  format: ['esm'],
  target: 'node22',
  platform: 'node',
  sourcemap: true,
  // Declarations come from `tsc --build` (the root project graph), which tsup leaves in place.
  clean: ['!**/*.d.ts', '!**/*.d.ts.map'],
});
