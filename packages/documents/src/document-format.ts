import { createHash } from 'node:crypto';
import {
  type DocumentPart,
  type DocumentText,
  type ExtractedDocument,
  ExtractionFailure,
  type FormattedSlice,
  type PdfSlice,
  type Recognition,
} from './extracted.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const UNIT_NAMES = { page: 'Page', chapter: 'Chapter' } as const;

/** What a marker says of a part recognised by OCR (spec R120). */
function recognisedNote(recognised: Recognition, text: string): string {
  return text === ''
    ? `no text layer, and OCR (${recognised.engine}) found no text in it`
    : `no text layer; its text was recognised by OCR (${recognised.engine}), confidence ${recognised.confidence}%`;
}

/** The marker line of part `index` (0-based) of `count`. */
function marker(
  unit: 'page' | 'chapter',
  index: number,
  count: number,
  part: ExtractedDocument['parts'][number],
): string {
  const name = `${UNIT_NAMES[unit]} ${index + 1} of ${count}`;
  if (part.failed !== undefined) return `[${name}: could not be read (${part.failed})]`;
  if (part.unrecognised !== undefined) {
    return `[${name}: no text layer, and it was not recognised: ${part.unrecognised}]`;
  }
  if (part.recognised !== undefined)
    return `[${name}: ${recognisedNote(part.recognised, part.text)}]`;
  if (part.blank) return `[${name}: blank (nothing is drawn on it)]`;
  if (part.text === '') {
    return unit === 'page'
      ? `[${name}: no text layer (a scanned or image-only page)]`
      : `[${name}${part.title ? `: ${part.title}` : ''} (no text)]`;
  }
  return `[${name}${part.title ? `: ${part.title}` : ''}]`;
}

/**
 * The marked text of an extracted document, with where each part begins and each part's hash
 * (made in the extraction process, so the daemon only receives it).
 */
export function formatDocument(
  document: ExtractedDocument,
  /** For a slice of a longer document: its first part's number and the whole's part count. */
  within?: { first: number; count: number },
): DocumentText {
  const { format, unit } = document;
  if (unit === undefined) {
    const text = document.parts.map((part) => part.text).join('\n\n');
    const [only] = document.parts;
    const parts: DocumentPart[] = [
      {
        line: 1,
        ...(text === '' ? { empty: true } : {}),
        ...(only?.recognised === undefined ? {} : { recognised: only.recognised }),
      },
    ];
    return { format, parts, text, hashes: [sha256(text)] };
  }
  const lines: string[] = [];
  const parts: DocumentPart[] = [];
  const count = within?.count ?? document.parts.length;
  const offset = (within?.first ?? 1) - 1;
  for (const [at, part] of document.parts.entries()) {
    const index = at + offset;
    if (index > 0) lines.push('');
    parts.push({
      line: lines.length + 1,
      ...(part.title === undefined ? {} : { title: part.title }),
      ...(part.text === '' ? { empty: true } : {}),
      ...(part.failed === undefined ? {} : { failed: part.failed }),
      ...(part.recognised === undefined ? {} : { recognised: part.recognised }),
      ...(part.unrecognised === undefined ? {} : { unrecognised: part.unrecognised }),
    });
    lines.push(marker(unit, index, count, part));
    if (part.text !== '') for (const line of part.text.split('\n')) lines.push(line);
  }
  const hashes = document.parts.map((part) => sha256(part.text));
  return { format, unit, parts, text: lines.join('\n'), hashes };
}

/** A slice of a PDF formatted in its own process, its pages numbered in the whole. */
export function formatPdfSlice(slice: PdfSlice): FormattedSlice {
  const failed = slice.parts.find((part) => part.failed !== undefined)?.failed;
  const allFailed = slice.parts.every((part) => part.failed !== undefined) ? failed : undefined;
  return {
    pages: slice.pages,
    first: slice.first,
    document: formatDocument(
      { format: 'pdf', unit: 'page', parts: slice.parts },
      { first: slice.first, count: slice.pages },
    ),
    chars: slice.parts.reduce((sum, part) => sum + part.text.length, 0),
    ...(allFailed === undefined ? {} : { allFailed }),
  };
}

/**
 * The marked text of a PDF from its formatted slices, in order: their texts joined, their parts'
 * lines moved down by the lines before. Throws `damaged` for slices that are not one document's
 * consecutive pages or a file with no readable page, `text_limit` when their text together passes
 * `maxTextChars`.
 */
export function joinFormattedSlices(slices: FormattedSlice[], maxTextChars: number): DocumentText {
  let next = 1;
  for (const slice of slices) {
    if (slice.first !== next || slice.pages !== slices[0]?.pages) {
      throw new ExtractionFailure('damaged', 'its pages were read inconsistently');
    }
    next += slice.document.hashes.length;
  }
  const chars = slices.reduce((sum, slice) => sum + slice.chars, 0);
  if (chars > maxTextChars) {
    throw new ExtractionFailure('text_limit', `its text passes ${maxTextChars} characters`);
  }
  const read = slices.filter((slice) => slice.document.hashes.length > 0);
  const failed = read.find((slice) => slice.allFailed !== undefined)?.allFailed;
  if (failed !== undefined && read.every((slice) => slice.allFailed !== undefined)) {
    throw new ExtractionFailure('damaged', failed);
  }
  const parts: DocumentPart[] = [];
  let lines = 0;
  for (const { document } of read) {
    for (const part of document.parts) parts.push({ ...part, line: part.line + lines });
    lines += lineCount(document.text);
  }
  return {
    format: 'pdf',
    unit: 'page',
    parts,
    text: read.map((slice) => slice.document.text).join('\n'),
    hashes: read.flatMap((slice) => slice.document.hashes),
  };
}

/** How many lines a text has (counted without splitting it). */
function lineCount(text: string): number {
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}
