export { checkAnswerCitations, markChangedSince } from './answer-citations.js';
export { type CitationReading, type CitedDocument, checkCitations } from './check-citations.js';
export { citationReadings, wholeTextReadings } from './citation-readings.js';
export { MAX_CITATIONS, type ParsedCitation, parseCitations } from './parse-citations.js';
