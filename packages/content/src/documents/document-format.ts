import { createHash } from 'node:crypto';
import type { DocumentFormat, ExtractedDocument } from './extracted.ts';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

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
  /** The sha256 (hex) of each part's text, so a change can name the parts that changed. */
  hashes: string[];
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
