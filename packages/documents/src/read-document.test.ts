import { makePdf } from '@repa/fixtures';
import { describe, expect, it } from 'vitest';
import { type DocumentText, type DocumentTextCache, readDocument } from './index.js';

/** A cache in memory that counts what it is asked. */
function memoryCache() {
  const texts = new Map<string, DocumentText>();
  const calls = { reads: 0, writes: 0 };
  const cache: DocumentTextCache = {
    read: async (version) => {
      calls.reads += 1;
      return texts.get(version);
    },
    write: async (version, _extractor, document) => {
      calls.writes += 1;
      texts.set(version, document);
    },
  };
  return { cache, texts, calls };
}

const handout = makePdf([{ lines: ['Osmosis moves water'] }, { lines: ['across a membrane'] }]);

describe('readDocument', () => {
  it('gives a PDF page by page with markers, without a cache', async () => {
    const document = await readDocument('pdf', handout);
    expect(document.text).toBe(
      '[Page 1 of 2]\nOsmosis moves water\n\n[Page 2 of 2]\nacross a membrane',
    );
    expect(document.parts.map((part) => part.line)).toEqual([1, 4]);
  });

  it('keeps what it extracted in the cache, and gives what the cache holds for the version', async () => {
    const { cache, texts, calls } = memoryCache();
    const first = await readDocument('pdf', handout, { version: 'v1', cache });
    expect(texts.get('v1')).toEqual(first);
    texts.set('v1', { ...first, text: 'kept text' });
    expect((await readDocument('pdf', handout, { version: 'v1', cache })).text).toBe('kept text');
    expect(calls).toEqual({ reads: 2, writes: 1 });
  });

  it('shares one extraction among reads of the same version at once', async () => {
    const { cache, calls } = memoryCache();
    const reads = await Promise.all(
      [1, 2, 3].map(() => readDocument('pdf', handout, { version: 'v2', cache })),
    );
    expect(reads[1]).toBe(reads[0]);
    expect(reads[2]).toBe(reads[0]);
    expect(calls).toEqual({ reads: 1, writes: 1 });
  });

  it('uses no cache without a version, and keeps no failed extraction', async () => {
    const { cache, calls } = memoryCache();
    await readDocument('pdf', handout, { cache });
    await expect(
      readDocument('pdf', Buffer.from('%PDF-1.7\nnot a pdf'), { version: 'v3', cache }),
    ).rejects.toMatchObject({ code: 'document_unreadable', details: { reason: 'damaged' } });
    expect(calls).toEqual({ reads: 1, writes: 0 });
  });
});
