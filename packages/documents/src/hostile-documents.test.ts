import { setImmediate as nextTurn } from 'node:timers/promises';
import { makePdf } from '@repa/fixtures';
import { repaErrorOf } from '@repa/protocol/testing';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { type DocumentFormat, type ExtractionLimits, readDocument } from './index.js';

const pages = (count: number) =>
  makePdf(
    Array.from({ length: count }, (_, index) => ({
      lines: Array.from({ length: 40 }, (_, line) => `Page ${index + 1} line ${line + 1} of notes`),
    })),
  );

/** The error a document's extraction ends with, by code and reason. */
async function failure(
  bytes: Uint8Array,
  format: DocumentFormat,
  limits?: Partial<ExtractionLimits>,
) {
  const error = await repaErrorOf(readDocument(format, bytes, { limits }));
  return { code: error.code, reason: error.details?.reason, message: error.message };
}

describe('hostile documents fail their own call with a code', () => {
  it('a PDF whose page tree holds a million pages', async () => {
    const bomb = makePdf([{ lines: ['one page, referred to a million times'] }], {
      claimedPages: 1_000_000,
    });
    expect(bomb.length).toBeLessThan(4096);
    expect(await failure(bomb, 'pdf')).toMatchObject({
      code: 'document_unreadable',
      reason: 'page_limit',
      message: expect.stringContaining('1000000 pages'),
    });
  });

  it('a PDF nested deeper than the extraction stack', async () => {
    const deep = makePdf([{ lines: ['deep'] }], { nesting: 200_000 });
    expect(await failure(deep, 'pdf')).toMatchObject({
      code: 'document_unreadable',
      reason: 'damaged',
    });
  });

  it('a PDF whose content stream inflates past the bound (a decompression bomb)', async () => {
    const bomb = makePdf([{ lines: ['x'] }], { inflatedBytes: 80 * 1024 * 1024 });
    expect(bomb.length).toBeLessThan(200 * 1024);
    expect(await failure(bomb, 'pdf')).toMatchObject({
      code: 'document_unreadable',
      reason: 'decompression_bomb',
    });
  });

  it('a Word document whose archive inflates past the bound', async () => {
    const bomb = zipSync({ 'word/document.xml': new Uint8Array(4 * 1024 * 1024) });
    expect(await failure(bomb, 'docx', { maxStreamBytes: 1024 * 1024 })).toMatchObject({
      code: 'document_unreadable',
      reason: 'decompression_bomb',
    });
  });

  it('a document that takes longer than its time, and the next one is read', async () => {
    const slow = await repaErrorOf(readDocument('pdf', pages(50), { limits: { timeoutMs: 1 } }));
    expect(slow.details).toMatchObject({ reason: 'time_limit' });
    const { text } = await readDocument('pdf', pages(2));
    expect(text).toContain('[Page 2 of 2]\nPage 2 line 1 of notes');
  });

  it('a document that needs more memory than the extraction process has', async () => {
    // Past the JavaScript heap, and past the resident size (buffers outside the heap count).
    expect(await failure(pages(200), 'pdf', { maxHeapMb: 8 })).toMatchObject({
      code: 'document_unreadable',
      reason: 'memory_limit',
    });
    expect(await failure(pages(200), 'pdf', { maxResidentMb: 16 })).toMatchObject({
      code: 'document_unreadable',
      reason: 'memory_limit',
    });
  });
});

describe('extraction runs off the event loop, in its own process', () => {
  it('lets the event loop turn while a long PDF is extracted', async () => {
    let turns = 0;
    let done = false;
    const extraction = readDocument('pdf', pages(150)).finally(() => {
      done = true;
    });
    while (!done) {
      turns += 1;
      await nextTurn();
    }
    expect(turns).toBeGreaterThan(100);
    // Read as runs of pages by the pool's processes at once, and joined in page order.
    const document = await extraction;
    expect(document.parts).toHaveLength(150);
    const lines = document.text.split('\n');
    for (const [index, part] of document.parts.entries()) {
      expect(lines.slice(part.line - 1, part.line + 1)).toEqual([
        `[Page ${index + 1} of 150]`,
        `Page ${index + 1} line 1 of notes`,
      ]);
    }
  });

  it('a PDF whose pages together pass the text bound, though each run of them does not', async () => {
    expect(await failure(pages(150), 'pdf', { maxTextChars: 120_000 })).toMatchObject({
      code: 'document_unreadable',
      reason: 'text_limit',
    });
  });
});
