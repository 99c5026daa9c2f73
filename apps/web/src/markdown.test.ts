import { describe, expect, it } from 'vitest';
import type { ReaderPlace } from './file-links.js';
import { markdownSources } from './markdown.js';

// The Markdown the page reads, before any HTML: which lines each block of a note comes from (the
// reader marks a cited line's block) and which citations and file names become reader links.
// Rendering and sanitizing need the browser: the browser tests check them (web-e2e, web-documents).

/** Each block's first and last line, and its kind. */
function lines(markdown: string): [number, number, string][] {
  return markdownSources(markdown).map(({ line, endLine, tokens }) => [
    line,
    endLine,
    tokens[0]?.type ?? '',
  ]);
}

/** The reader links found in a text: what each was written as, and the place it opens. */
function readerLinks(markdown: string): { raw: string; place: ReaderPlace }[] {
  const found: { raw: string; place: ReaderPlace }[] = [];
  const walk = (tokens: readonly unknown[] | undefined) => {
    for (const token of tokens ?? []) {
      const { type, raw, place, tokens: inner } = token as Record<string, unknown>;
      if (type === 'readerCitation' || type === 'readerPath' || type === 'readerCode') {
        found.push({ raw: raw as string, place: place as ReaderPlace });
      }
      walk(inner as unknown[] | undefined);
    }
  };
  for (const source of markdownSources(markdown)) walk(source.tokens);
  return found;
}

describe('markdownSources: the lines of each block', () => {
  it('numbers headings, paragraphs and lists by the lines they span, blank lines left out', () => {
    expect(lines('\n\n# Tides\n\nThe tide turns\nevery six hours.\n\n- spring\n- neap\n')).toEqual([
      [3, 3, 'heading'],
      [5, 6, 'paragraph'],
      [8, 9, 'list'],
    ]);
  });

  it('counts the blank lines inside a fenced code block, a loose list and a table', () => {
    expect(lines('```\na\n\nb\n```\n\n- one\n\n- two\n\n| a |\n|---|\n| 1 |\n\nEnd')).toEqual([
      [1, 5, 'code'],
      [7, 9, 'list'],
      [11, 13, 'table'],
      [15, 15, 'paragraph'],
    ]);
  });

  it('keeps counting after a link definition, which a block before it links to', () => {
    const text = 'See [the tables][t].\n\n[t]: https://example.org/tides\n\n# After\n';
    expect(lines(text)).toEqual([
      [1, 1, 'paragraph'],
      [3, 3, 'def'],
      [5, 5, 'heading'],
    ]);
    const [paragraph] = markdownSources(text)[0]?.tokens ?? [];
    expect((paragraph as { tokens?: unknown[] }).tokens).toContainEqual(
      expect.objectContaining({ type: 'link', href: 'https://example.org/tides' }),
    );
  });

  it('counts Windows line ends as one line each', () => {
    expect(lines('# Tides\r\n\r\nThe tide\r\nturns.\r\n\r\nEnd\r\n')).toEqual([
      [1, 1, 'heading'],
      [3, 4, 'paragraph'],
      [6, 6, 'paragraph'],
    ]);
  });
});

describe('markdownSources: citations and file names as reader links', () => {
  it('reads the citation forms of the protocol: line, range, page, quoted, angle-bracketed, identity', () => {
    const text = [
      'Tides turn [notes/a.md:3 "The tide turns"].',
      'The moon [moon.pdf#p4:3-9 “pulls”], [<week 1/notes.md>:2], [./notes/b.md:7 – 8],',
      'and [repa:document/d_1:5].',
    ].join('\n');
    expect(readerLinks(text).map(({ place }) => place)).toEqual([
      { path: 'notes/a.md', line: 3, endLine: undefined, page: undefined },
      { path: 'moon.pdf', line: 3, endLine: 9, page: 4 },
      { path: 'week 1/notes.md', line: 2, endLine: undefined, page: undefined },
      { path: 'notes/b.md', line: 7, endLine: 8, page: undefined },
      { path: 'repa:document/d_1', line: 5, endLine: undefined, page: undefined },
    ]);
  });

  it('links a file name in the text or a code span, but not one in an address, a longer name or a link', () => {
    const text = [
      'Read notes/a.md and moon.pdf first, then `notes/b.md:12` and `` c.md ``, not `x.md y`.',
      'Not https://example.org/notes/a.md, me@notes.md, notes/a.md.bak, a.mdx,',
      'nor [the note](notes/b.md).',
    ].join('\n');
    expect(readerLinks(text)).toEqual([
      { raw: 'notes/a.md', place: { path: 'notes/a.md' } },
      { raw: 'moon.pdf', place: { path: 'moon.pdf' } },
      { raw: '`notes/b.md:12`', place: { path: 'notes/b.md', line: 12 } },
      { raw: '`` c.md ``', place: { path: 'c.md', line: undefined } },
    ]);
  });

  it('leaves a bracket that is no citation as text', () => {
    expect(readerLinks('A list [1], a note [notes:3] and [notes/a.md] alone.')).toEqual([
      { raw: 'notes/a.md', place: { path: 'notes/a.md' } },
    ]);
  });

  it("makes no reader link of a Markdown link's text (a citation, a file name, a code span): it stays the link", () => {
    const text = [
      'See [notes/c.md:3](https://example.org/c), [notes/a.md:2][t], [`notes/b.md`](https://example.org/b)',
      'and [moon.pdf](https://example.org/m).',
      '',
      '[t]: notes/a.md',
    ].join('\n');
    expect(readerLinks(text)).toEqual([]);
    const [paragraph] = markdownSources(text)[0]?.tokens ?? [];
    const links = ((paragraph as { tokens?: { type: string; href?: string }[] }).tokens ?? [])
      .filter((token) => token.type === 'link')
      .map((token) => token.href);
    expect(links).toEqual([
      'https://example.org/c',
      'notes/a.md',
      'https://example.org/b',
      'https://example.org/m',
    ]);
  });
});
