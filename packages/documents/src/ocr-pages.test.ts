import { spawnSync } from 'node:child_process';
import { makeScannedPdf, makeTextImage } from '@repa/fixtures';
import { describe, expect, it } from 'vitest';
import { type DocumentText, type DocumentTextCache, readDocument } from './index.js';

/** A cache in memory that counts the extractions it spares. */
function memoryCache() {
  const texts = new Map<string, DocumentText>();
  const calls = { hits: 0, writes: 0 };
  const cache: DocumentTextCache = {
    read: async (version, extractor) => {
      const kept = texts.get(`${version} ${extractor}`);
      if (kept) calls.hits += 1;
      return kept;
    },
    write: async (version, extractor, document) => {
      calls.writes += 1;
      texts.set(`${version} ${extractor}`, document);
    },
  };
  return { cache, calls };
}

const LINES = ['Osmosis moves water', 'across a membrane'];

describe('readDocument of pages without a text layer (OCR)', () => {
  it('recognises a scanned page, marks it with the confidence, and caches the text', async () => {
    const scan = await makeScannedPdf([{ lines: LINES }]);
    const { cache, calls } = memoryCache();
    const progress: { done: number; total: number }[] = [];
    const first = await readDocument('pdf', scan, {
      version: 'a'.repeat(64),
      cache,
      onProgress: (made) => progress.push(made),
    });
    expect(first.text).toMatch(
      /^\[Page 1 of 1: no text layer; its text was recognised by OCR \(tesseract [\d.]+ \(eng\)\), confidence \d+%\]\nOsmosis moves water\nacross a membrane$/u,
    );
    expect(first.parts[0]?.recognised?.confidence).toBeGreaterThan(60);
    expect(progress.at(-1)).toEqual({ done: 1, total: 1 });
    // The second read is the cache's: no extraction, so no progress either.
    progress.length = 0;
    const again = await readDocument('pdf', scan, {
      version: 'a'.repeat(64),
      cache,
      onProgress: (made) => progress.push(made),
    });
    expect(again.text).toBe(first.text);
    expect(calls).toEqual({ hits: 1, writes: 1 });
    expect(progress).toEqual([]);
  });

  it('fails a page past its OCR time bound with time_limit and reads the next page', async () => {
    const scan = await makeScannedPdf([{ gibberish: 2400 }, { lines: LINES }]);
    const started = Date.now();
    const document = await readDocument('pdf', scan, { limits: { ocrPageTimeoutMs: 4000 } });
    expect(document.text.split('\n')[0]).toBe(
      '[Page 1 of 2: could not be read (time_limit: recognising it took longer than 4 s)]',
    );
    expect(document.text).toContain('Osmosis moves water\nacross a membrane');
    expect(document.parts[1]?.recognised).toBeDefined();
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('stops the extraction when its read is cancelled, and the next read is served', async () => {
    const scan = await makeScannedPdf([{ gibberish: 2400 }]);
    const stop = new AbortController();
    const started = Date.now();
    const reading = readDocument('pdf', scan, {
      signal: stop.signal,
      // The page is being recognised (its OCR alone takes some 13 s of a core): cancel now.
      onProgress: (made) => made.done === 0 && setTimeout(() => stop.abort(), 4000),
    });
    await expect(reading).rejects.toMatchObject({ code: 'cancelled' });
    expect(Date.now() - started).toBeLessThan(14_000);
    // No OCR command is left running for it (the process group was stopped).
    const left = spawnSync('pgrep', ['-f', 'bin/tesseract stdin stdout'], { encoding: 'utf8' });
    expect(left.stdout).toBe('');
    const image = await readDocument('image', await makeTextImage(LINES));
    expect(image.text).toBe('Osmosis moves water\nacross a membrane');
  });

  it('reads an image file by OCR, and refuses a language not installed with its package', async () => {
    const png = await makeTextImage(LINES);
    const image = await readDocument('image', png);
    expect(image.text).toBe('Osmosis moves water\nacross a membrane');
    await expect(
      readDocument('image', png, { ocrLanguages: ['eng', 'xyz'] }),
    ).rejects.toMatchObject({
      code: 'ocr_unavailable',
      message: expect.stringContaining('tesseract-ocr-xyz'),
    });
  });
});
