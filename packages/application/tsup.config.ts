import { libraryBuild } from '../../tsup.base.ts';

// Keep `node:sqlite` as written: it exists only under the `node:` scheme.
export default libraryBuild(['src/index.ts'], { removeNodeProtocol: false });
