import { rm } from 'node:fs/promises';
import { makeEpub, makePdf, TIDES_NOTE as TIDES } from '@repa/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { openTools, type ToolResult } from '../test/content-tools.js';
import { tempSpace, writeFiles } from '../test/temp-space.js';
import { checkAnswerCitations, markChangedSince } from './answer-citations.js';
import { type CitationReading, checkCitations } from './check-citations.js';
import { citationReadings } from './citation-readings.js';
import { parseCitations } from './parse-citations.js';

const reading = (overrides: Partial<CitationReading> = {}): CitationReading => ({
  target: 'notes/tides.md',
  identity: 'repa:document/tides',
  version: 'v1',
  firstLine: 1,
  lines: TIDES.split('\n'),
  totalLines: 5,
  ...overrides,
});

describe('parseCitations', () => {
  it('reads path, page, lines and quote; leaves other brackets alone', () => {
    const answer =
      'Tides follow the Moon [notes/tides.md:2 "caused mainly by the Moon"]. ' +
      'See [book.pdf#p4:3–9], [repa:document/ab_1:2-3], [<my notes/a b.md>:1] ' +
      'and [./notes/x.md:7-8 \u201Ccurly\u201D]. Not citations: [10:30], [see: 3], [link](x.md), [a.md:]';
    const parsed = parseCitations(answer);
    for (const { text, offset } of parsed) expect(answer.slice(offset).startsWith(text)).toBe(true);
    expect(parsed.map(({ offset: _offset, ...citation }) => citation)).toEqual([
      {
        text: '[notes/tides.md:2 "caused mainly by the Moon"]',
        document: 'notes/tides.md',
        startLine: 2,
        endLine: 2,
        quote: 'caused mainly by the Moon',
      },
      { text: '[book.pdf#p4:3–9]', document: 'book.pdf', page: 4, startLine: 3, endLine: 9 },
      {
        text: '[repa:document/ab_1:2-3]',
        document: 'repa:document/ab_1',
        startLine: 2,
        endLine: 3,
      },
      { text: '[<my notes/a b.md>:1]', document: 'my notes/a b.md', startLine: 1, endLine: 1 },
      {
        text: '[./notes/x.md:7-8 \u201Ccurly\u201D]',
        document: 'notes/x.md',
        startLine: 7,
        endLine: 8,
        quote: 'curly',
      },
    ]);
  });
});

describe('checkCitations', () => {
  const check = (answer: string, readings = [reading()]) =>
    checkCitations(parseCitations(answer), readings, new Map([['gone.md', null]])).map(
      (citation) => citation.status,
    );

  it('verifies a quote across line breaks and spacing, with an excerpt of the version read', () => {
    const [citation] = checkCitations(
      parseCitations('[notes/tides.md:3-4 "smaller   pull, so spring tides"]'),
      [reading()],
    );
    expect(citation).toMatchObject({
      status: 'verified',
      identity: 'repa:document/tides',
      version: 'v1',
      excerpt: 'The Sun adds a smaller pull,\nso spring tides come at new and full moon.',
    });
  });

  it('verifies by identity and without a quote', () => {
    expect(check('[repa:document/tides:1-2] [notes/tides.md:5]')).toEqual(['verified', 'verified']);
  });

  it('finds a quote that is not in the cited range (exact otherwise: case counts)', () => {
    expect(
      check('[notes/tides.md:2 "the Sun"] [notes/tides.md:2 "caused mainly by the moon"]'),
    ).toEqual(['quote_not_found', 'quote_not_found']);
  });

  it('refuses lines past the end of the version read', () => {
    expect(check('[notes/tides.md:4-6] [notes/tides.md:3-2]')).toEqual([
      'range_outside',
      'range_outside',
    ]);
  });

  it('says not_read for lines the run was not shown and documents it never read', () => {
    const window = reading({ firstLine: 1, lines: TIDES.split('\n').slice(0, 2) });
    expect(check('[notes/tides.md:2-3] [notes/other.md:1] [book.pdf#p2:1]', [window])).toEqual([
      'not_read',
      'not_read',
      'not_read',
    ]);
  });

  it('says unknown_document for a document the space does not have', () => {
    expect(check('[gone.md:1]')).toEqual(['unknown_document']);
  });

  it('checks against the last version read only', () => {
    const older = reading({ version: 'v0', lines: ['old text'], totalLines: 1 });
    expect(check('[notes/tides.md:1 "old text"] [notes/tides.md:5]', [older, reading()])).toEqual([
      'quote_not_found',
      'verified',
    ]);
  });
});

describe('citationReadings and checkAnswerCitations', () => {
  let root: string | undefined;
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
    root = undefined;
  });

  it('checks an answer against real read results, then marks an edited document changedSince', async () => {
    root = await tempSpace({ 'notes/tides.md': `${TIDES}\n`, 'notes/other.md': 'other\n' });
    const { store, call } = await openTools(root);
    const result = await call('read', { path: 'notes/tides.md', offset: 2, limit: 3 });
    const messages = [{ role: 'toolResult', toolName: 'read', isError: false, ...result }];
    const readings = citationReadings(messages);
    expect(readings).toMatchObject([{ target: 'notes/tides.md', firstLine: 2, totalLines: 6 }]);
    expect(readings[0]?.lines).toEqual(TIDES.split('\n').slice(1, 4));
    const answer =
      'Mostly the Moon [notes/tides.md:2 "caused mainly by the Moon"], neaps ' +
      '[notes/tides.md:5], [notes/other.md:1], [notes/missing.md:1], [notes/tides.md:9].';
    const citations = await checkAnswerCitations(store, answer, readings);
    expect(citations.map((citation) => citation.status)).toEqual([
      'verified',
      'not_read',
      'not_read',
      'unknown_document',
      'range_outside',
    ]);
    expect(await markChangedSince(store, citations)).toEqual(citations);
    await writeFiles(root, { 'notes/tides.md': `${TIDES}\nEdited later.\n` });
    const shown = await markChangedSince(store, citations);
    expect(shown[0]?.changedSince).toBe(true);
    expect(shown[2]?.changedSince).toBeUndefined();
  });

  it('drops readings of a version the conversation later saved over', async () => {
    root = await tempSpace({ 'notes/tides.md': `${TIDES}\n` });
    const { call } = await openTools(root);
    const read = await call('read', { path: 'notes/tides.md' });
    const edit = await call('edit', {
      path: 'notes/tides.md',
      edits: [{ oldText: 'Neap', newText: 'Neap (weak)' }],
    });
    const messages = [read, edit].map((result, index) => ({
      role: 'toolResult',
      toolName: index === 0 ? 'read' : 'edit',
      isError: false,
      ...result,
    }));
    expect(citationReadings(messages.slice(0, 1))).toHaveLength(1);
    expect(citationReadings(messages)).toEqual([]);
  });
});

describe('page citations of documents', () => {
  let root: string | undefined;
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
    root = undefined;
  });

  /** Three pages: the second says three things, the third is a scan. */
  const lecture = () =>
    makePdf([
      { lines: ['Week 1', 'Topic 1 of the course.'] },
      {
        lines: ['Week 2', 'The Krebs cycle releases carbon dioxide.', 'It runs in mitochondria.'],
      },
      { image: true },
    ]);
  const asMessages = (...results: ToolResult[]) =>
    results.map((result) => ({ role: 'toolResult', toolName: 'read', isError: false, ...result }));

  it('verifies a PDF page citation against the whole text read, line 1 after [Page n of N]', async () => {
    root = await tempSpace({ 'lectures/bio.pdf': lecture() });
    const { store, call } = await openTools(root);
    const readings = citationReadings(asMessages(await call('read', { path: 'lectures/bio.pdf' })));
    expect(
      readings.map(({ page, firstLine, totalLines }) => [page, firstLine, totalLines]),
    ).toEqual([
      [undefined, 1, 10],
      [1, 1, 2],
      [2, 1, 3],
      [3, 1, 0],
    ]);
    const answer =
      'Krebs [lectures/bio.pdf#p2:2 "Krebs cycle releases carbon dioxide"], ' +
      '[lectures/bio.pdf#p2:1 "carbon dioxide"], [lectures/bio.pdf#p2:3-4], [lectures/bio.pdf#p3:1], ' +
      '[lectures/bio.pdf:7 "Krebs cycle"], [lectures/bio.pdf#p9:1]';
    const citations = await checkAnswerCitations(store, answer, readings);
    expect(citations.map((citation) => citation.status)).toEqual([
      'verified',
      'quote_not_found',
      'range_outside',
      'range_outside',
      'verified',
      'not_read',
    ]);
    expect(citations[0]).toMatchObject({
      page: 2,
      target: 'lectures/bio.pdf',
      excerpt: 'The Krebs cycle releases carbon dioxide.',
    });
  });

  it('verifies page citations against chosen pages, never their lines as the whole text', async () => {
    root = await tempSpace({ 'lectures/bio.pdf': lecture() });
    const { store, call } = await openTools(root);
    const chosen = await call('read', { path: 'lectures/bio.pdf', pages: '2' });
    const check = async (answer: string, readings: CitationReading[]) =>
      (await checkAnswerCitations(store, answer, readings)).map((citation) => citation.status);
    expect(
      await check(
        '[lectures/bio.pdf#p2:2-3 "releases carbon dioxide. It runs"] [lectures/bio.pdf#p2:3 "Krebs"] ' +
          '[lectures/bio.pdf#p2:4] [lectures/bio.pdf#p1:1] [lectures/bio.pdf:2]',
        citationReadings(asMessages(chosen)),
      ),
    ).toEqual(['verified', 'quote_not_found', 'range_outside', 'not_read', 'not_read']);
    // Lines 3-6 of pages 1-2: the end of page 1 (cut at its start) and page 2's first line.
    const cut = await call('read', { path: 'lectures/bio.pdf', pages: '1-2', offset: 3, limit: 4 });
    const readings = citationReadings(asMessages(cut));
    expect(readings).toEqual([
      {
        target: 'lectures/bio.pdf',
        identity: expect.any(String),
        version: expect.any(String),
        page: 2,
        firstLine: 1,
        lines: ['Week 2'],
      },
    ]);
    expect(
      await check(
        '[lectures/bio.pdf#p2:1 "Week 2"] [lectures/bio.pdf#p2:2] [lectures/bio.pdf#p1:2]',
        readings,
      ),
    ).toEqual(['verified', 'not_read', 'not_read']);
  });

  it('verifies a chapter citation of an EPUB', async () => {
    root = await tempSpace({
      'book.epub': makeEpub('Cell Biology', [
        { title: 'The Cell', paragraphs: ['Cells are the unit of life.'] },
        { title: 'Division', paragraphs: ['Mitosis makes two cells.'] },
      ]),
    });
    const { store, call } = await openTools(root);
    const readings = citationReadings(asMessages(await call('read', { path: 'book.epub' })));
    const citations = await checkAnswerCitations(
      store,
      '[book.epub#p2:3 "Mitosis makes two cells."] [book.epub#p1:3 "Mitosis"] [book.epub#p2:4]',
      readings,
    );
    expect(citations.map((citation) => citation.status)).toEqual([
      'verified',
      'quote_not_found',
      'range_outside',
    ]);
  });
});
