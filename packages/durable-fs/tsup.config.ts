import { libraryBuild } from '../../tsup.base.ts';

export default libraryBuild({ index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' });
