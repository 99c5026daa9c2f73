import { describe, expect, it } from 'vitest';
import { formatDocument, formatPdfSlice, joinFormattedSlices } from './document-format.js';
import type { ExtractedPart } from './extracted.js';

describe('a PDF read in slices by several processes', () => {
  // Seven pages: one unreadable, one without a text layer.
  const parts: ExtractedPart[] = Array.from({ length: 7 }, (_, index) => {
    if (index === 3) return { text: '', failed: 'bad page' };
    if (index === 5) return { text: '' };
    return { text: `Page ${index + 1} first line\nsecond line` };
  });
  const whole = formatDocument({ format: 'pdf', unit: 'page', parts });

  it('joins into the marked text, parts, lines and hashes of the whole read at once', () => {
    for (const cut of [0, 1, 3, 6, 7]) {
      const slices = [
        formatPdfSlice({ pages: 7, first: 1, parts: parts.slice(0, cut) }),
        formatPdfSlice({ pages: 7, first: cut + 1, parts: parts.slice(cut) }),
      ];
      expect(joinFormattedSlices(slices, 1_000_000)).toEqual(whole);
    }
  });

  it('refuses runs that do not follow each other, and text past the bound over all of them', () => {
    const a = formatPdfSlice({ pages: 7, first: 1, parts: parts.slice(0, 3) });
    const b = formatPdfSlice({ pages: 7, first: 5, parts: parts.slice(4) });
    expect(() => joinFormattedSlices([a, b], 1_000_000)).toThrow('read inconsistently');
    const c = formatPdfSlice({ pages: 7, first: 4, parts: parts.slice(3) });
    expect(() => joinFormattedSlices([a, c], 60)).toThrow('passes 60 characters');
  });
});
