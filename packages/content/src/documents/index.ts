export { type ContentText, contentText, documentText, readContentText } from './document-reader.js';
