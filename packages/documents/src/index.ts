export {
  type ContentKind,
  contentKindOf,
  DOCUMENT_EXTENSIONS,
  documentReadOnly,
  formatName,
  isDocumentName,
  refuseDocumentSave,
  refuseUnsupportedContent,
  unsupportedContent,
} from './content-kind.js';
export { DEFAULT_EXTRACTION_LIMITS } from './document-extractor.js';
export { partOfLine, selectParts } from './document-text.js';
export type {
  DocumentFormat,
  DocumentPart,
  DocumentText,
  ExtractionFailureReason,
  ExtractionLimits,
} from './extracted.js';
export {
  DOCUMENT_EXTRACTOR,
  type DocumentTextCache,
  type ReadDocumentOptions,
  readDocument,
} from './read-document.js';
