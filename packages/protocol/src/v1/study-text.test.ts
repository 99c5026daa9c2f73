import { describe, expect, it } from 'vitest';
import { citedLines, formatInterval, parseCite } from './study-text.js';

describe('parseCite', () => {
  it('reads a note’s lines, a page’s lines and an identity’s, and refuses what names no lines', () => {
    expect(parseCite('notes/x.md:12-18')).toEqual({
      document: 'notes/x.md',
      startLine: 12,
      endLine: 18,
    });
    expect(parseCite('book.pdf#p4:3')).toEqual({
      document: 'book.pdf',
      page: 4,
      startLine: 3,
      endLine: 3,
    });
    expect(parseCite('repa:document/abc:2–3')).toEqual({
      document: 'repa:document/abc',
      startLine: 2,
      endLine: 3,
    });
    expect(parseCite('notes/x.md')).toBeUndefined();
    expect(parseCite('notes/x.md:5-2')).toBeUndefined();
    expect(parseCite('notes/x.md:0')).toBeUndefined();
  });

  it('reads a path with spaces as drafted cards write it, in <…>, without the brackets', () => {
    expect(parseCite('<my notes/week 1.md>:3')).toEqual({
      document: 'my notes/week 1.md',
      startLine: 3,
      endLine: 3,
    });
  });
});

describe('citedLines', () => {
  it('numbers a note’s cited lines and stops where the text ends', () => {
    const read = { text: 'one\ntwo\nthree\n' };
    expect(citedLines(read, { document: 'a.md', startLine: 2, endLine: 3 })).toEqual([
      { line: 2, text: 'two' },
      { line: 3, text: 'three' },
    ]);
    expect(citedLines(read, { document: 'a.md', startLine: 3, endLine: 9 })).toEqual([
      { line: 3, text: 'three' },
    ]);
    expect(citedLines(read, { document: 'a.md', startLine: 4, endLine: 4 })).toEqual([]);
  });

  it('counts a page’s lines from the line after its marker', () => {
    const read = {
      text: '--- page 1 ---\nfirst\n--- page 2 ---\nalpha\nbeta\n',
      document: {
        format: 'pdf' as const,
        unit: 'page' as const,
        parts: [{ line: 1 }, { line: 3 }],
      },
    };
    expect(citedLines(read, { document: 'b.pdf', page: 2, startLine: 1, endLine: 2 })).toEqual([
      { line: 1, text: 'alpha' },
      { line: 2, text: 'beta' },
    ]);
    expect(citedLines(read, { document: 'b.pdf', page: 3, startLine: 1, endLine: 1 })).toEqual([]);
  });
});

describe('formatInterval', () => {
  it('says an interval in the largest unit that fits', () => {
    const minute = 60_000;
    expect(
      [0, 20_000, minute, 10 * minute, 5 * 60 * minute, 8 * 1440 * minute].map(formatInterval),
    ).toEqual(['now', 'now', '1m', '10m', '5h', '8d']);
    expect(formatInterval(92 * 1440 * minute)).toBe('3mo');
    expect(formatInterval(438 * 1440 * minute)).toBe('1.2y');
  });
});
