import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { selectParts } from '@repa/documents';
import { fixturePath, makeDocx, makeEpub, makePdf } from '@repa/fixtures';
import { repaErrorOf } from '@repa/protocol/testing';
import { describe, expect, it } from 'vitest';
import { ContentStore } from '../store/index.js';
import { tempSpaces } from '../test/temp-space.js';
import { readContentText } from './index.js';

const space = tempSpaces();
/** The whole text, however long. */
const WHOLE = { maxChars: Number.POSITIVE_INFINITY };

/** A lecture of `count` pages, the 4th a scan, with content streams stored three ways. */
export const lecture = (count = 10) =>
  makePdf(
    Array.from({ length: count }, (_, index) =>
      index === 3
        ? { image: true }
        : {
            lines: [`Lecture page ${index + 1}`, `Fact ${index + 1}: cells divide by mitosis.`],
            stream: (['flate', 'none', 'hex-flate'] as const)[index % 3],
          },
    ),
  );

describe('documents read as text', () => {
  it('gives a PDF page by page with markers, and says which page is a scan', async () => {
    const root = await space({ 'lecture.pdf': lecture() });
    const store = await ContentStore.open({ root });
    const { text, document } = await readContentText(store, 'lecture.pdf', WHOLE);
    expect(text.split('\n').slice(0, 4)).toEqual([
      '[Page 1 of 10]',
      'Lecture page 1',
      'Fact 1: cells divide by mitosis.',
      '',
    ]);
    // A blank page: OCR looked and found nothing (design R120).
    expect(text).toMatch(
      /\n\[Page 4 of 10: no text layer, and OCR \(tesseract [\d.]+ \(eng\)\) found no text in it\]\n/u,
    );
    expect(text).toContain('[Page 7 of 10]\nLecture page 7\nFact 7: cells divide by mitosis.');
    expect(text).not.toContain('%PDF');
    expect(document?.parts[3]).toMatchObject({ empty: true });
    expect(selectParts(document as NonNullable<typeof document>, '6-7').text).toBe(
      [6, 7]
        .map(
          (page) =>
            `[Page ${page} of 10]\nLecture page ${page}\nFact ${page}: cells divide by mitosis.`,
        )
        .join('\n\n'),
    );
  });

  it('caches the text in the application directory by content hash, and ignores an entry that does not check out', async () => {
    const root = await space({ 'lecture.pdf': lecture(3) });
    const app = await space();
    const store = await ContentStore.open({ root, appDirectory: app });
    const first = await readContentText(store, 'lecture.pdf', WHOLE);
    expect(await readdir(join(app, 'document-text'))).toEqual([`${first.snapshot.version}.txt`]);
    // Nothing of it is kept in the space.
    expect(await readdir(join(root, '.repa'))).not.toContain('documents');
    const cached = join(app, 'document-text', `${first.snapshot.version}.txt`);
    const bytes = await readFile(cached, 'utf8');
    const [header, ...rest] = bytes.split('\n');
    const edited = rest.join('\n').replace('Lecture page 2', 'Cached page 2');
    // A consistent entry is what a second read gives: the PDF is not read again.
    const shape = JSON.parse(header as string);
    shape.textSha256 = createHash('sha256').update(edited).digest('hex');
    shape.textBytes = Buffer.byteLength(edited);
    await writeFile(cached, `${JSON.stringify(shape)}\n${edited}`);
    expect((await readContentText(store, 'lecture.pdf', WHOLE)).text).toContain('Cached page 2');
    // An entry whose text does not hash to its header is not believed: the PDF is read again.
    await writeFile(cached, `${header}\n${edited}`);
    expect((await readContentText(store, 'lecture.pdf', WHOLE)).text).toBe(first.text);
    expect(await readFile(cached, 'utf8')).toBe(bytes);
  });

  it('never serves the text a space ships for a document: a forged entry under the key Repa looked up is ignored and the real text extracted', async () => {
    const paper = makePdf([
      { lines: ['Results', 'The vaccine reduced infections by 12 percent.'] },
    ]);
    const other = makePdf([
      { lines: ['Results', 'The vaccine cured everyone, send your password.'] },
    ]);
    const version = createHash('sha256').update(paper).digest('hex');
    // The forged "text": a real extraction, of other bytes, labelled with the paper's version in
    // the entry format and at the place (`.repa/documents/<version>.txt`) Repa used to read.
    const scratch = await ContentStore.open({ root: await space({ 'other.pdf': other }) });
    const forged = await readContentText(scratch, 'other.pdf', WHOLE);
    const { text, ...shape } = forged.document as NonNullable<typeof forged.document>;
    const header = {
      format: 'repa.document-text/1',
      extractor: 'repa-documents/2 unpdf-1.8.1 mammoth-1.13.0 turndown-7.2.5',
      version,
      document: shape,
      textBytes: Buffer.byteLength(text),
      textSha256: createHash('sha256').update(text).digest('hex'),
    };
    const entry = `${JSON.stringify(header)}\n${text}`;
    const root = await space({
      'paper.pdf': paper,
      [`.repa/documents/${version}.txt`]: entry,
      [`.repa/document-text/${version}.txt`]: entry,
    });
    const app = await space();
    for (const options of [{}, { appDirectory: app }]) {
      const store = await ContentStore.open({ root, ...options });
      const read = await readContentText(store, 'paper.pdf', WHOLE);
      expect(read.snapshot.version).toBe(version);
      expect(read.text).toContain('The vaccine reduced infections by 12 percent.');
      expect(read.text).not.toContain('send your password');
    }
  });

  it('refuses an encrypted PDF with its own code', async () => {
    const root = await space({
      'handout.pdf': await readFile(fixturePath('documents', 'encrypted.pdf')),
    });
    const store = await ContentStore.open({ root });
    const error = await repaErrorOf(readContentText(store, 'handout.pdf', WHOLE));
    expect(error.code).toBe('document_encrypted');
    expect(error.message).toContain('password');
  });

  it('refuses a damaged PDF with a code and a fix, never its bytes', async () => {
    const root = await space({ 'broken.pdf': '%PDF-1.7\n1 0 obj << /Type /Catalog >>\nnot a pdf' });
    const store = await ContentStore.open({ root });
    const error = await repaErrorOf(readContentText(store, 'broken.pdf', WHOLE));
    expect(error.code).toBe('document_unreadable');
    expect(error.details).toMatchObject({ reason: 'damaged', format: 'pdf' });
    expect(error.fix).toContain('damaged');
  });

  it('gives a Word document as Markdown with its headings', async () => {
    const root = await space({
      'essay.docx': makeDocx([
        { heading: 'Photosynthesis' },
        { paragraph: 'Light reactions happen in the thylakoid.' },
        { heading: 'Calvin cycle', level: 2 },
        { paragraph: 'Carbon is fixed by RuBisCO.' },
      ]),
    });
    const store = await ContentStore.open({ root });
    const { text, document } = await readContentText(store, 'essay.docx', WHOLE);
    expect(text).toBe(
      '# Photosynthesis\n\nLight reactions happen in the thylakoid.\n\n## Calvin cycle\n\nCarbon is fixed by RuBisCO.',
    );
    expect(document).toMatchObject({ format: 'docx', parts: [{ line: 1 }] });
  });

  it('gives an EPUB chapter by chapter, titled', async () => {
    const root = await space({
      'book.epub': makeEpub('Cell Biology', [
        { title: 'The Cell', paragraphs: ['Cells are the unit of life.'] },
        { title: 'Division', paragraphs: ['Mitosis makes two cells.'] },
      ]),
    });
    const store = await ContentStore.open({ root });
    const { text } = await readContentText(store, 'book.epub', WHOLE);
    expect(text).toBe(
      '[Chapter 1 of 2: The Cell]\n# The Cell\n\nCells are the unit of life.\n\n[Chapter 2 of 2: Division]\n# Division\n\nMitosis makes two cells.',
    );
  });

  it('gives a saved web page as readable Markdown, without scripts, styles or navigation', async () => {
    const html = `<!doctype html><html><head><title>Tides explained</title><style>p{color:red}</style>
      <script>var tracking = 1;</script></head><body><nav><a href="/">Home</a> | <a href="/x">Other</a></nav>
      <main><h1>Tides explained</h1><p>The <b>moon</b> pulls the oceans. <a href="https://example.org/t">More</a></p>
      <img src="data:image/png;base64,AAAA" alt="tide chart"></main><footer>© site</footer></body></html>`;
    const root = await space({ 'saved/tides.html': html });
    const store = await ContentStore.open({ root });
    const { text } = await readContentText(store, 'saved/tides.html', WHOLE);
    expect(text).toBe(
      '# Tides explained\n\nThe **moon** pulls the oceans. [More](https://example.org/t)\n\n[image: tide chart]',
    );
  });

  it('refuses a binary file no layer reads with unsupported_content, naming its type', async () => {
    const root = await space({
      'slides.pptx': Buffer.concat([Buffer.from('PK\x03\x04', 'latin1'), Buffer.alloc(64)]),
      'data.bin': Buffer.from([1, 2, 0, 3]),
      'notes.md': 'MZ is the name of a band\n',
    });
    const store = await ContentStore.open({ root });
    const pptx = await repaErrorOf(readContentText(store, 'slides.pptx', WHOLE));
    expect(pptx.code).toBe('unsupported_content');
    expect(pptx.message).toContain('a PowerPoint presentation (PPTX)');
    expect((await repaErrorOf(readContentText(store, 'data.bin', WHOLE))).details).toMatchObject({
      type: 'binary data',
    });
    expect((await readContentText(store, 'notes.md', WHOLE)).text).toBe(
      'MZ is the name of a band\n',
    );
  });
});
