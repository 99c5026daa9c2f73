import { libraryBuild } from '../../tsup.base.ts';

export default libraryBuild({
  index: 'src/index.ts',
  schemas: 'src/schemas.ts',
  'internal/index': 'src/internal/index.ts',
  'node/index': 'src/node/index.ts',
  'testing/index': 'src/testing/index.ts',
  // The PDF page text rule alone, for the extraction process (which never loads the schemas).
  'pdf-page-text': 'src/v1/pdf-page-text.ts',
});
