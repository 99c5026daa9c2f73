import { RepaError } from '@repa/protocol';
import type { DocumentFormat, ExtractedDocument } from './extracted.js';

/** Where one part (a page or chapter) of a document's text begins, and what it is. */
export interface DocumentPart {
  /** The 1-based line of the text where the part's marker is. */
  line: number;
  /** The chapter's title, when it has one. */
  title?: string;
  /** True when the part has no text (a scanned page, an image-only chapter). */
  empty?: true;
  /** Why the part could not be read, when it could not. */
  failed?: string;
}

/**
 * A document as the model reads it (spec R60): its text with a marker line before each page or
 * chapter (`[Page 3 of 12]`), and where each part begins. Lines are counted in this text.
 */
export interface DocumentText {
  format: DocumentFormat;
  /** What a part is; absent for a document of one part (DOCX, HTML). */
  unit?: 'page' | 'chapter';
  /** The parts, in order; one for a document without units. */
  parts: DocumentPart[];
  /** The marked text. */
  text: string;
}

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

/** The marked text of an extracted document, with where each part begins. */
export function formatDocument(document: ExtractedDocument): DocumentText {
  const { format, unit } = document;
  if (unit === undefined) {
    const text = document.parts.map((part) => part.text).join('\n\n');
    return { format, parts: [{ line: 1, ...(text === '' ? { empty: true } : {}) }], text };
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
  return { format, unit, parts, text: lines.join('\n') };
}

/** The 1-based number of the part that holds `line` (1-based) of the text. */
export function partOfLine(document: DocumentText, line: number): number {
  let low = 0;
  let high = document.parts.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if ((document.parts[middle]?.line ?? 0) <= line) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/** A page range as the `read` tool takes it: `7`, `3-5` or `3-` (to the end). */
const RANGE = /^\s*(\d+)\s*(?:(-)\s*(\d*)\s*)?$/u;

/**
 * The text of the parts `range` names (1-based, inclusive), with the first and last shown.
 * `invalid_request` for a range that does not parse, for a document without pages, or past its end.
 */
export function selectParts(
  document: DocumentText,
  range: string,
): { text: string; first: number; last: number } {
  const count = document.parts.length;
  if (document.unit === undefined) {
    throw new RepaError('invalid_request', 'This document has no pages or chapters to select.', {
      fix: 'Leave out pages; use offset and limit (lines) instead.',
    });
  }
  const match = RANGE.exec(range);
  const unit = `${document.unit}s`;
  if (!match) {
    throw new RepaError('invalid_request', `pages ${JSON.stringify(range)} is not a range.`, {
      fix: `Give one number ("7") or a range ("3-5", "3-") of ${unit} from 1 to ${count}.`,
    });
  }
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : match[3] ? Number(match[3]) : count;
  if (first < 1 || first > count || last < first) {
    throw new RepaError(
      'invalid_request',
      `The document has ${count} ${unit}; pages ${JSON.stringify(range)} names none of them.`,
      { fix: `Give ${unit} from 1 to ${count}.` },
    );
  }
  const shownLast = Math.min(last, count);
  const lines = document.text.split('\n');
  const from = (document.parts[first - 1] as DocumentPart).line - 1;
  const next = document.parts[shownLast];
  // Each part but the first is preceded by one blank line, which belongs to the gap, not the part.
  const to = next === undefined ? lines.length : next.line - 2;
  return { text: lines.slice(from, to).join('\n'), first, last: shownLast };
}

/** The text of each part (without its marker line), in order. */
export function partTexts(document: DocumentText): string[] {
  if (document.unit === undefined) return [document.text];
  const lines = document.text.split('\n');
  return document.parts.map((part, index) => {
    const next = document.parts[index + 1];
    return lines.slice(part.line, next === undefined ? lines.length : next.line - 2).join('\n');
  });
}
