import { libraryBuild } from '../../tsup.base.ts';

// The extraction process's entry is its own file, loaded by file (extraction-process.ts) through
// the package's `./worker` export.
export default libraryBuild({ index: 'src/index.ts', 'extract-worker': 'src/extract-worker.ts' });
