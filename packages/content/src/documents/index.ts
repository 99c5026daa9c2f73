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
export { DEFAULT_EXTRACTION_LIMITS, extractDocument } from './document-extractor.js';
export {
  type ContentText,
  contentText,
  documentText,
  readContentText,
} from './document-reader.js';
export { partOfLine, selectParts } from './document-text.js';
export type { DocumentFormat, DocumentPart, DocumentText, ExtractionLimits } from './extracted.js';
