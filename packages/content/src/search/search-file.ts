import { close, fstat, open, read } from 'node:fs';
import { promisify } from 'node:util';
import { errnoCode, READ_FOLLOW, READ_NO_FOLLOW } from '@repa/durable-fs';

/** A file's bytes for a search, or why it was skipped. */
export type SearchRead =
  | { bytes: Buffer }
  | { skipped: 'special' | 'too large' | 'binary' | 'unreadable'; size?: number };

// As git and ripgrep: a NUL in the first 8 KiB marks a binary file.
const BINARY_PROBE = 8192;

// The callback API through promisify: a search opens many small files, and FileHandle objects
// cost several times more per file (measured in bench/cases/search.mjs).
const openFile = promisify(open);
const statFile = promisify(fstat);
const readFile = promisify(read);
const closeFile = promisify(close);

/**
 * Reads one file for a search without ever waiting on it: opened non-blocking (never through a
 * symlink unless `follow`), checked to be a regular file of at most `maxBytes` before reading.
 * A binary file is skipped unless `binary` (a document, whose text the caller extracts).
 */
export async function readForSearch(
  absolutePath: string,
  options: { follow: boolean; maxBytes: number; binary?: boolean },
): Promise<SearchRead> {
  let fd: number;
  try {
    fd = await openFile(absolutePath, options.follow ? READ_FOLLOW : READ_NO_FOLLOW);
  } catch (error) {
    const code = errnoCode(error);
    return { skipped: code === 'ENXIO' || code === 'EOPNOTSUPP' ? 'special' : 'unreadable' };
  }
  try {
    const stats = await statFile(fd);
    if (!stats.isFile()) return { skipped: 'special' };
    if (stats.size > options.maxBytes) return { skipped: 'too large', size: stats.size };
    // One byte more than the size: a file that grew meanwhile is read up to the bound only.
    const buffer = Buffer.allocUnsafe(Math.min(stats.size + 1, options.maxBytes + 1));
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await readFile(fd, buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > options.maxBytes) return { skipped: 'too large', size: length };
    const bytes = buffer.subarray(0, length);
    if (!options.binary && bytes.subarray(0, BINARY_PROBE).includes(0))
      return { skipped: 'binary' };
    return { bytes };
  } catch {
    return { skipped: 'unreadable' };
  } finally {
    await closeFile(fd).catch(() => undefined);
  }
}
