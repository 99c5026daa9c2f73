import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fixturePath, makePdf } from '@repa/fixtures';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { openTools, textOf } from '../test/content-tools.js';
import { tempSpaces } from '../test/temp-space.js';

const space = tempSpaces();

/** A 12-page lecture; page `changed` (if any) says something else. */
const lecture = (changed?: number) =>
  makePdf(
    Array.from({ length: 12 }, (_, index) => ({
      lines:
        index + 1 === changed
          ? [`Week ${index + 1}`, 'Revised: enzymes lower the activation energy.']
          : [`Week ${index + 1}`, `Topic ${index + 1} of the course.`],
      stream: index % 2 === 0 ? ('flate' as const) : ('none' as const),
    })).map((page, index) =>
      index === 6 ? { lines: ['Week 7', 'The Krebs cycle releases carbon dioxide.'] } : page,
    ),
  );

describe('the content tools on documents', () => {
  it('read gives a PDF as page-marked text, a page range, and lines of it', async () => {
    const root = await space({ 'lectures/bio.pdf': lecture() });
    const { call, observer } = await openTools(root);
    const whole = await call('read', { path: 'lectures/bio.pdf' });
    expect(textOf(whole)).toMatch(
      /^\[Page 1 of 12\]\nWeek 1\nTopic 1 of the course\.\n\n\[Page 2 of 12\]/u,
    );
    expect(whole.details).toMatchObject({
      document: { format: 'pdf', unit: 'page', parts: 12 },
      partial: false,
    });
    const page = await call('read', { path: 'lectures/bio.pdf', pages: '7' });
    expect(textOf(page)).toBe('[Page 7 of 12]\nWeek 7\nThe Krebs cycle releases carbon dioxide.');
    expect(page.details).toMatchObject({
      partial: true,
      document: { shown: { first: 7, last: 7 } },
    });
    const lines = await call('read', {
      path: 'lectures/bio.pdf',
      pages: '7-8',
      offset: 2,
      limit: 1,
    });
    expect(textOf(lines)).toBe('Week 7\n\n[5 more lines in file. Use offset=3 to continue.]');
    expect(observer.get('lectures/bio.pdf')).toMatchObject({
      partial: true,
      document: { format: 'pdf' },
    });
    expect(observer.get('lectures/bio.pdf')?.text).toBeUndefined();
  });

  it('grep finds a phrase on page 7 of a PDF and says so', async () => {
    const root = await space({ 'lectures/bio.pdf': lecture(), 'notes.md': 'nothing here\n' });
    const { call } = await openTools(root);
    const result = await call('grep', { pattern: 'Krebs cycle' });
    expect(textOf(result)).toContain(
      'lectures/bio.pdf:27: (page 7) The Krebs cycle releases carbon dioxide.',
    );
    expect(result.details).toMatchObject({
      hits: [{ path: 'lectures/bio.pdf', line: 27, page: 7 }],
    });
    // The line is the one read shows.
    const read = await call('read', { path: 'lectures/bio.pdf', offset: 27, limit: 1 });
    expect(textOf(read).split('\n')[0]).toBe('The Krebs cycle releases carbon dioxide.');
  });

  it('grep puts document hits in walk order among the text files, within the limit', async () => {
    const root = await space({
      'a.md': 'Krebs, first\n',
      'b.pdf': lecture(),
      'c.md': 'Krebs, last\n',
      'd.pdf': await readFile(fixturePath('documents', 'encrypted.pdf')),
    });
    const { call } = await openTools(root);
    const all = await call('grep', { pattern: 'Krebs' });
    expect(all.details).toMatchObject({
      hits: [
        { path: 'a.md', line: 1 },
        { path: 'b.pdf', line: 27, page: 7 },
        { path: 'c.md', line: 1 },
      ],
      skippedFiles: [{ path: 'd.pdf', reason: 'unreadable' }],
    });
    expect(textOf(all)).toContain('Not searched (their text could not be read): d.pdf (');
    const two = await call('grep', { pattern: 'Krebs', limit: 2 });
    expect(two.details).toMatchObject({
      hits: [{ path: 'a.md' }, { path: 'b.pdf', page: 7 }],
      matchLimitReached: 2,
    });
    // The search ended at its limit, before the encrypted PDF.
    expect(two.details).not.toHaveProperty('skippedFiles');
  });

  it('refuses unreadable and unsupported files with their codes', async () => {
    const root = await space({
      'locked.pdf': await readFile(fixturePath('documents', 'encrypted.pdf')),
      'photo.heic': Buffer.concat([Buffer.from('\0\0\0\x18ftypheic', 'latin1'), Buffer.alloc(32)]),
    });
    const { call } = await openTools(root);
    expect((await repaErrorOf(call('read', { path: 'locked.pdf' }))).code).toBe(
      'document_encrypted',
    );
    const heic = await repaErrorOf(call('read', { path: 'photo.heic' }));
    expect(heic.code).toBe('unsupported_content');
    expect(heic.message).toContain('a HEIC image');
  });

  it('write, edit and apply_patch refuse a document, read or not', async () => {
    const root = await space({ 'bio.pdf': lecture(), 'page.html': '<p>Tides</p>' });
    const { call } = await openTools(root);
    await call('read', { path: 'bio.pdf' });
    await call('read', { path: 'page.html' });
    const refusals: [string, Record<string, unknown>][] = [
      ['write', { path: 'bio.pdf', content: 'notes' }],
      ['edit', { path: 'bio.pdf', edits: [{ oldText: 'Week 1', newText: 'Week one' }] }],
      ['edit', { path: 'page.html', edits: [{ oldText: 'Tides', newText: 'Waves' }] }],
      ['write', { path: 'new.pdf', content: 'not a pdf' }],
      ['apply_patch', { input: '*** Begin Patch\n*** Delete File: bio.pdf\n*** End Patch' }],
      [
        'apply_patch',
        { input: '*** Begin Patch\n*** Add File: summary.docx\n+text\n*** End Patch' },
      ],
    ];
    for (const [tool, params] of refusals) {
      const error = await repaErrorOf(call(tool, params));
      expect(error.code, tool).toBe('document_read_only');
      expect(error.message).toContain('write notes about them in a Markdown file');
    }
    expect(await readFile(join(root, 'bio.pdf'))).toEqual(lecture());
  });

  it('tells which pages of a PDF changed on disk since they were read', async () => {
    const root = await space({ 'bio.pdf': lecture() });
    const { call, observer } = await openTools(root);
    await call('read', { path: 'bio.pdf' });
    await writeFile(join(root, 'bio.pdf'), lecture(3));
    const { changes } = await observer.checkChanges('diff');
    expect(changes).toMatchObject([
      {
        target: 'bio.pdf',
        kind: 'modified',
        form: 'location',
        hint: 'Pages 3 of 12 changed since they were read. Read them again (read with pages).',
      },
    ]);
  });

  it('reads a granted PDF material as text, untracked', async () => {
    const root = await space();
    const outside = await space({ 'ch3.pdf': lecture() });
    const appDirectory = await space({
      'repa-content-access.json': JSON.stringify({
        format: 'repa.content-access/1',
        materials: { ch3: { path: join(outside, 'ch3.pdf') } },
      }),
    });
    const { call, observer } = await openTools(root, { appDirectory });
    const result = await call('read', { path: 'repa:material/ch3', pages: '7' });
    expect(textOf(result)).toContain('The Krebs cycle releases carbon dioxide.');
    expect(result.details).toMatchObject({ outside: true, identity: 'repa:material/ch3' });
    expect(observer.list()).toEqual([]);
    const grep = await call('grep', { pattern: 'Krebs', path: 'repa:material/ch3' });
    expect(textOf(grep)).toContain('repa:material/ch3:27: (page 7) The Krebs cycle');
  });
});
