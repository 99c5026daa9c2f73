import { createHash } from 'node:crypto';
import type { DocumentPart, DocumentText, ExtractedDocument } from './extracted.ts';

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
