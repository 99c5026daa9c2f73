import { createHash } from 'node:crypto';
import {
  type DocumentPart,
  type DocumentText,
  type ExtractedDocument,
  ExtractionFailure,
  type PdfSlice,
} from './extracted.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const UNIT_NAMES = { page: 'Page', chapter: 'Chapter' } as const;

/** The marker line of part `index` (0-based) of `count`. */
function marker(
  unit: 'page' | 'chapter',
  index: number,
  count: number,
  part: ExtractedDocument['parts'][number],
): string {
  const name = `${UNIT_NAMES[unit]} ${index + 1} of ${count}`;
  if (part.failed !== undefined) return `[${name}: could not be read (${part.failed})]`;
  if (part.text === '') {
    return unit === 'page'
      ? `[${name}: no text layer (a scanned or image-only page); Repa does no OCR]`
      : `[${name}${part.title ? `: ${part.title}` : ''} (no text)]`;
  }
  return `[${name}${part.title ? `: ${part.title}` : ''}]`;
}

/**
 * The marked text of an extracted document, with where each part begins and each part's hash
 * (made in the extraction process, so the daemon only receives it).
 */
export function formatDocument(document: ExtractedDocument): DocumentText {
  const { format, unit } = document;
  if (unit === undefined) {
    const text = document.parts.map((part) => part.text).join('\n\n');
    const parts: DocumentPart[] = [{ line: 1, ...(text === '' ? { empty: true } : {}) }];
    return { format, parts, text, hashes: [sha256(text)] };
  }
  const lines: string[] = [];
  const parts: DocumentPart[] = [];
  const count = document.parts.length;
  for (const [index, part] of document.parts.entries()) {
    if (index > 0) lines.push('');
    parts.push({
      line: lines.length + 1,
      ...(part.title === undefined ? {} : { title: part.title }),
      ...(part.text === '' ? { empty: true } : {}),
      ...(part.failed === undefined ? {} : { failed: part.failed }),
    });
    lines.push(marker(unit, index, count, part));
    if (part.text !== '') for (const line of part.text.split('\n')) lines.push(line);
  }
  const hashes = document.parts.map((part) => sha256(part.text));
  return { format, unit, parts, text: lines.join('\n'), hashes };
}

/**
 * The document of a PDF's slices, in order (a file with no readable page is damaged); throws
 * `text_limit` when their text together passes `maxTextChars`.
 */
export function joinPdfSlices(slices: PdfSlice[], maxTextChars: number): ExtractedDocument {
  let next = 1;
  for (const slice of slices) {
    if (slice.first !== next || slice.pages !== slices[0]?.pages) {
      throw new ExtractionFailure('damaged', 'its pages were read inconsistently');
    }
    next += slice.parts.length;
  }
  const parts = slices.flatMap((slice) => slice.parts);
  const chars = parts.reduce((sum, part) => sum + part.text.length, 0);
  if (chars > maxTextChars) {
    throw new ExtractionFailure('text_limit', `its text passes ${maxTextChars} characters`);
  }
  const failed = parts.find((part) => part.failed !== undefined);
  if (failed !== undefined && parts.every((part) => part.failed !== undefined)) {
    throw new ExtractionFailure('damaged', failed.failed as string);
  }
  return { format: 'pdf', unit: 'page', parts };
}
