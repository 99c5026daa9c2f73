import { describe, expect, it } from 'vitest';
import { citationPlace } from './citations.js';

describe('citationPlace', () => {
  it('names a note’s lines, and a page with its lines on that page', () => {
    expect(citationPlace({ document: 'notes/tides.md', startLine: 12, endLine: 18 })).toBe(
      'notes/tides.md, lines 12–18',
    );
    expect(citationPlace({ document: 'notes/tides.md', startLine: 3, endLine: 3 })).toBe(
      'notes/tides.md, line 3',
    );
    expect(
      citationPlace({
        document: 'repa:document/x',
        target: 'b.pdf',
        page: 4,
        startLine: 3,
        endLine: 3,
      }),
    ).toBe('b.pdf p. 4, line 3');
  });
});
