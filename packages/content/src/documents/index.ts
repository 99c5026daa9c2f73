export { type ContentText, contentText, documentText, readContentText } from './document-reader.js';
export { readPdfBytes } from './pdf-bytes.js';
