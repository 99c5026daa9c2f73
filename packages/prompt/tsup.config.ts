import { libraryBuild } from '../../tsup.base.ts';

export default libraryBuild(['src/index.ts']);
