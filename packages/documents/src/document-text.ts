import { RepaError } from '@repa/protocol';
import type { DocumentPart, DocumentText } from './extracted.js';

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
