import { readdirSync, readFileSync } from 'node:fs';
import { makeScannedPdf, makeTextImage } from '@repa/fixtures';
import { describe, expect, it } from 'vitest';
import { type DocumentText, type DocumentTextCache, readDocument } from './index.js';

/** The command line of process `pid`, or '' when it is gone (or a zombie: it has none). */
function commandOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/**
 * The OCR commands running below this process now (its extraction processes' children), by pid.
 * Other processes on the machine, such as another package's tests recognising pages at the same
 * time, are not below it.
 */
function ocrCommandsBelow(pid = String(process.pid)): string[] {
  const found: string[] = [];
  for (const task of readdirSync(`/proc/${pid}/task`, { withFileTypes: false }).map(String)) {
    let children: string[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ');
    } catch {
      continue;
    }
    for (const child of children.filter(Boolean)) {
      if (/\btesseract stdin\b/u.test(commandOf(child))) found.push(child);
      found.push(...ocrCommandsBelow(child));
    }
  }
  return found;
}

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
    let abortedAt = 0;
    const reading = readDocument('pdf', scan, {
      signal: stop.signal,
      // The page is being recognised (its OCR alone takes some 13 s of a core): cancel once its
      // OCR command runs.
      onProgress: (made) => {
        if (made.done !== 0) return;
        const poll = setInterval(() => {
          running.push(...ocrCommandsBelow());
          if (running.length === 0) return;
          clearInterval(poll);
          abortedAt = Date.now();
          stop.abort();
        }, 50);
      },
    });
    const running: string[] = [];
    await expect(reading).rejects.toMatchObject({ code: 'cancelled' });
    // Not after the page's OCR ended (some 13 s of a core): when it was stopped.
    expect(Date.now() - abortedAt).toBeLessThan(8_000);
    // The OCR command recognising the page when the read was cancelled is stopped with its
    // extraction process (the process group was stopped).
    expect(running).toHaveLength(1);
    expect(running.map(commandOf)).toEqual(['']);
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
