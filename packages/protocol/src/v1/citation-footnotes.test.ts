import { describe, expect, it } from 'vitest';
import { citationFootnotes } from './citations.js';
import type { Citation } from './wire-types.generated.js';

const citation = (fields: Partial<Citation>): Citation =>
  ({
    index: 1,
    document: 'notes/tides.md',
    startLine: 12,
    endLine: 18,
    status: 'verified',
    ...fields,
  }) as Citation;

describe('citationFootnotes', () => {
  it('names a note’s lines, a page and an EPUB chapter with their lines on it', () => {
    expect(
      citationFootnotes([
        citation({}),
        citation({ index: 2, document: 'books/cell.pdf', page: 4, startLine: 3, endLine: 9 }),
        citation({ index: 3, document: 'books/cell.pdf', page: 2, startLine: 1, endLine: 1 }),
        citation({ index: 4, document: 'books/Sea.EPUB', page: 3, startLine: 2, endLine: 2 }),
      ]),
    ).toEqual([
      '[1] notes/tides.md, lines 12–18 ✓',
      '[2] books/cell.pdf p. 4, lines 3–9 ✓',
      '[3] books/cell.pdf p. 2, line 1 ✓',
      '[4] books/Sea.EPUB ch. 3, line 2 ✓',
    ]);
  });

  it('marks an unverified citation with its reason, and one whose document changed since', () => {
    expect(
      citationFootnotes([
        citation({ status: 'quote_not_found' }),
        citation({ index: 2, changedSince: true }),
      ]),
    ).toEqual([
      '[1] notes/tides.md, lines 12–18 ✗ quote not in those lines',
      '[2] notes/tides.md, lines 12–18 ✓ (changed since)',
    ]);
  });
});
