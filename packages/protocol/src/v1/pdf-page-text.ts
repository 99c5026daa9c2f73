// How a PDF page's text is made from PDF.js's text items: one rule for the extraction (whose lines
// citations count) and the page's reader (which marks the cited lines on the rendered page).

/** A PDF page's text with, for each text item, the line it lies on. */
export interface PdfPageText {
  /** The page's text, its lines as citations count them (line 1 first). */
  text: string;
  /**
   * For each item given, the line (from 1) of `text` where its string begins; 0 for an item with
   * no string (marked content) or on a line the text leaves out (blank, or past a blank run).
   */
  itemLines: number[];
}

/**
 * The text of a PDF page from PDF.js's text content items (design R123): their strings joined, a
 * line break where PDF.js ends a line (`hasEOL`), NULs dropped, each line's trailing blanks cut,
 * a run of blank lines kept as one and blank lines at either end (and the first line's leading
 * blanks) left out; with the line each item lies on.
 */
export function pdfPageText(items: readonly unknown[]): PdfPageText {
  const raw: string[] = [''];
  const rawLineOf: number[] = [];
  for (const item of items) {
    const { str, hasEOL } = item as { str?: unknown; hasEOL?: unknown };
    if (typeof str === 'string') {
      rawLineOf.push(raw.length - 1);
      const [first = '', ...rest] = str.replace(/\0/gu, '').split('\n');
      raw[raw.length - 1] += first;
      raw.push(...rest);
    } else rawLineOf.push(-1);
    if (hasEOL === true) raw.push('');
  }
  const trimmed = raw.map((line) => line.trimEnd());
  const first = trimmed.findIndex((line) => line !== '');
  const last = trimmed.findLastIndex((line) => line !== '');
  const lines: string[] = [];
  const lineOf = new Array<number>(raw.length).fill(0);
  for (let index = Math.max(first, 0); first !== -1 && index <= last; index++) {
    const line = trimmed[index] ?? '';
    if (line === '' && lines.at(-1) === '') continue;
    lines.push(lines.length === 0 ? line.trimStart() : line);
    lineOf[index] = lines.length;
  }
  return {
    text: lines.join('\n'),
    itemLines: rawLineOf.map((rawLine) => (rawLine < 0 ? 0 : (lineOf[rawLine] ?? 0))),
  };
}
