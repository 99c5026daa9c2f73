import { join } from 'node:path';
import type { DocumentText, DocumentTextCache } from '@repa/documents';
import type { FsLayer } from '@repa/durable-fs';
import { z } from 'zod';
import { readDataFile, realDirExists, versionOfYielding, writeRepaFile } from '../files/index.js';
import type { ContentStore } from '../store/index.js';

/** The largest cache entry read or written (bytes); a larger text is not cached. */
const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** The cache's size bound (bytes): past it the oldest entries go until it is under 3/4 of it. */
const MAX_CACHE_BYTES = 256 * 1024 * 1024;
/** Entries looked at when the cache is trimmed (the folder holds Repa's entries only). */
const MAX_ENTRIES = 10_000;

const VERSION = /^[0-9a-f]{64}$/u;

const headerSchema = z.strictObject({
  format: z.literal('repa.document-text/1'),
  extractor: z.string(),
  version: z.string().regex(VERSION),
  document: z.strictObject({
    format: z.enum(['pdf', 'docx', 'epub', 'html', 'image']),
    unit: z.enum(['page', 'chapter']).optional(),
    parts: z
      .array(
        z.strictObject({
          line: z.number().int().positive(),
          title: z.string().optional(),
          empty: z.literal(true).optional(),
          failed: z.string().optional(),
          recognised: z
            .strictObject({ engine: z.string(), confidence: z.number().min(0).max(100) })
            .optional(),
        }),
      )
      .min(1),
    hashes: z.array(z.string().regex(VERSION)).min(1),
  }),
  textBytes: z.number().int().nonnegative(),
  textSha256: z.string().regex(VERSION),
});

/**
 * Where the cache is: `document-text/` of the application directory, never a space (a space could
 * ship its own "text" for a document under the key Repa looks up), so an entry is only ever one
 * Repa wrote from bytes with that version. Without an application directory nothing is cached.
 */
interface CacheLocation {
  /** The application directory (spec R15), or none. */
  appDirectory: string | undefined;
  /** The file system it is read and written through. */
  fs: FsLayer;
}

/** The cache's folder: extracted texts by the version (sha256) of the document's bytes. */
const cacheDir = (appDirectory: string) => join(appDirectory, 'document-text');

/**
 * The cached text of the document whose bytes have `version`, or `undefined`. The cache is derived
 * and safe to delete: an entry that is not a plain file (or whose folder is not), is larger than
 * its bound, does not parse, was made by another extractor, names another version or does not
 * hash to what its header says is not used (spec R74).
 */
async function readCachedText(
  cache: CacheLocation,
  version: string,
  extractor: string,
): Promise<DocumentText | undefined> {
  const { appDirectory, fs } = cache;
  if (appDirectory === undefined) return undefined;
  const dir = cacheDir(appDirectory);
  let bytes: Buffer | undefined;
  try {
    if (!(await realDirExists(fs, dir))) return undefined;
    bytes = await readDataFile(fs, join(dir, `${version}.txt`), 'document text cache entry', {
      follow: false,
      maxBytes: MAX_ENTRY_BYTES,
    });
  } catch {
    return undefined;
  }
  if (bytes === undefined) return undefined;
  const end = bytes.indexOf(0x0a);
  if (end === -1) return undefined;
  let header: z.infer<typeof headerSchema>;
  try {
    header = headerSchema.parse(JSON.parse(bytes.toString('utf8', 0, end)));
  } catch {
    return undefined;
  }
  const text = bytes.subarray(end + 1);
  if (
    header.extractor !== extractor ||
    header.version !== version ||
    header.textBytes !== text.length ||
    (await versionOfYielding(text)) !== header.textSha256
  ) {
    return undefined;
  }
  return { ...header.document, text: text.toString('utf8') };
}

/**
 * Caches `document` as the text of the bytes with `version` (best effort: an application directory
 * that cannot be written keeps no cache), then trims the cache to its bound.
 */
async function writeCachedText(
  cache: CacheLocation,
  version: string,
  extractor: string,
  document: DocumentText,
): Promise<void> {
  const { appDirectory, fs } = cache;
  if (appDirectory === undefined) return;
  const text = Buffer.from(document.text, 'utf8');
  const { text: _text, ...shape } = document;
  const header = JSON.stringify({
    format: 'repa.document-text/1',
    extractor,
    version,
    document: shape,
    textBytes: text.length,
    textSha256: await versionOfYielding(text),
  } satisfies z.infer<typeof headerSchema>);
  const entry = Buffer.concat([Buffer.from(`${header}\n`, 'utf8'), text]);
  if (entry.length > MAX_ENTRY_BYTES) return;
  try {
    const dir = cacheDir(appDirectory);
    await writeRepaFile(fs, appDirectory, join(dir, `${version}.txt`), entry, 'none');
    await trimCache(fs, dir);
  } catch {
    // A cache is derived: without it the document is read again next time.
  }
}

/** Removes the oldest entries while the cache is larger than its bound. */
async function trimCache(fs: FsLayer, dir: string): Promise<void> {
  const names = (await fs.readdir(dir)).slice(0, MAX_ENTRIES);
  const entries: { path: string; size: number; mtime: number }[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const stats = await fs.lstat(path).catch(() => undefined);
    if (stats?.isFile()) {
      entries.push({ path, size: Number(stats.size), mtime: Number(stats.mtimeMs) });
    }
  }
  let total = entries.reduce((sum, entry) => sum + entry.size, 0);
  if (total <= MAX_CACHE_BYTES) return;
  entries.sort((a, b) => a.mtime - b.mtime);
  for (const entry of entries) {
    if (total <= (MAX_CACHE_BYTES / 4) * 3) break;
    await fs.unlink(entry.path).catch(() => undefined);
    total -= entry.size;
  }
}

/** The document cache of each store (one object per store, so its reads share extractions). */
const caches = new WeakMap<ContentStore, DocumentTextCache>();

/** The cache of documents read through `store`: its application directory's (spec R74). */
export function spaceDocumentCache(store: ContentStore): DocumentTextCache {
  let cache = caches.get(store);
  if (cache === undefined) {
    cache = {
      read: (version, extractor) => readCachedText(store.space, version, extractor),
      write: (version, extractor, document) =>
        writeCachedText(store.space, version, extractor, document),
    };
    caches.set(store, cache);
  }
  return cache;
}
