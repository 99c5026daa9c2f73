import { libraryBuild } from '../../tsup.base.ts';

// The store (`.`, no Pi), the Pi tools (`./tools`) and the search worker, loaded by file
// (search/search-pool.ts). The entries share their modules' chunks: one ContentStore class.
export default libraryBuild({
  index: 'src/index.ts',
  'tools-entry': 'src/tools-entry.ts',
  'search-worker': 'src/search/search-worker.ts',
});
