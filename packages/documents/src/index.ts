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
  Recognition,
} from './extracted.js';
export {
  type DocumentTextCache,
  type ReadDocumentOptions,
  readDocument,
  renderPdfPage,
} from './read-document.js';
