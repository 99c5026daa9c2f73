import { libraryBuild } from '../../tsup.base.ts';

export default libraryBuild({
  index: 'src/index.ts',
  schemas: 'src/schemas.ts',
  'internal/index': 'src/internal/index.ts',
  'node/index': 'src/node/index.ts',
  'testing/index': 'src/testing/index.ts',
});
