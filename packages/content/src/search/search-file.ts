import { fstatSync, openSync, readSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { errnoCode, READ_NO_FOLLOW } from '@repa/durable-fs';
import { closeQuietly } from './space-walk.js';

/** A file's bytes for a search (valid until the next read with the same buffer), or why not. */
export type SearchRead =
  | { bytes: Buffer }
  | { skipped: 'special' | 'too large' | 'binary' | 'unreadable'; size?: number };

// As git and ripgrep: a NUL in the first 8 KiB marks a binary file.
const BINARY_PROBE = 8192;

/** A buffer reused from one file to the next: a search allocates nothing per file read. */
export class ReadBuffer {
  private buffer = Buffer.allocUnsafe(64 * 1024);

  /** At least `size` bytes. */
  take(size: number): Buffer {
    if (this.buffer.length < size)
      this.buffer = Buffer.allocUnsafe(Math.max(size, 2 * this.buffer.length));
    return this.buffer;
  }
}

/**
 * Reads one file for a search synchronously (in the search worker) without ever waiting on it:
 * opened non-blocking and never through a symlink (an outside material too: it is searched at the
 * real path it was granted at), checked to be a regular file of at most `maxBytes` before
 * reading, read into `into`.
 */
export function readForSearch(
  absolutePath: string,
  options: { maxBytes: number },
  into: ReadBuffer,
): SearchRead {
  let fd: number;
  try {
    fd = openSync(absolutePath, READ_NO_FOLLOW);
  } catch (error) {
    return openFailure(error);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { skipped: 'special' };
    if (stats.size > options.maxBytes) return { skipped: 'too large', size: stats.size };
    // One byte more than the size: a file that grew meanwhile is read up to the bound only.
    const want = Math.min(stats.size + 1, options.maxBytes + 1);
    const buffer = into.take(want);
    let length = 0;
    while (length < want) {
      const bytesRead = readSync(fd, buffer, length, want - length, length);
      length += bytesRead;
      // A short read of a regular file is its end.
      if (bytesRead === 0 || length < want) break;
    }
    if (length > options.maxBytes) return { skipped: 'too large', size: length };
    const bytes = buffer.subarray(0, length);
    if (bytes.subarray(0, BINARY_PROBE).includes(0)) return { skipped: 'binary' };
    return { bytes };
  } catch {
    return { skipped: 'unreadable' };
  } finally {
    closeQuietly(fd);
  }
}

/** Why a file could not be opened for a search: a FIFO, socket or device, or unreadable. */
function openFailure(error: unknown): SearchRead {
  const code = errnoCode(error);
  return { skipped: code === 'ENXIO' || code === 'EOPNOTSUPP' ? 'special' : 'unreadable' };
}

/**
 * Reads a document for `grep` on the event loop, where its text is extracted (spec R60): as
 * {@link readForSearch} but asynchronous, into bytes of its own, binary bytes kept.
 */
export async function readDocumentForSearch(
  absolutePath: string,
  options: { maxBytes: number },
): Promise<SearchRead> {
  let handle: FileHandle;
  try {
    handle = await open(absolutePath, READ_NO_FOLLOW);
  } catch (error) {
    return openFailure(error);
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { skipped: 'special' };
    if (stats.size > options.maxBytes) return { skipped: 'too large', size: stats.size };
    const want = Math.min(stats.size + 1, options.maxBytes + 1);
    const buffer = Buffer.allocUnsafe(want);
    let length = 0;
    while (length < want) {
      const { bytesRead } = await handle.read(buffer, length, want - length, length);
      length += bytesRead;
      if (bytesRead === 0 || length < want) break;
    }
    if (length > options.maxBytes) return { skipped: 'too large', size: length };
    return { bytes: buffer.subarray(0, length) };
  } catch {
    return { skipped: 'unreadable' };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
