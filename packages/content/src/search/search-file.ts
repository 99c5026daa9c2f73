import { open } from 'node:fs/promises';
import { errnoCode, READ_FOLLOW, READ_NO_FOLLOW } from '@repa/durable-fs';

/** A file's bytes for a search, or why it was skipped. */
export type SearchRead =
  | { bytes: Buffer }
  | { skipped: 'special' | 'too large' | 'binary' | 'unreadable'; size?: number };

// As git and ripgrep: a NUL in the first 8 KiB marks a binary file.
const BINARY_PROBE = 8192;

/**
 * Reads one file for a search without ever waiting on it: opened non-blocking (never through a
 * symlink unless `follow`), checked to be a regular file of at most `maxBytes` before reading.
 */
export async function readForSearch(
  absolutePath: string,
  options: { follow: boolean; maxBytes: number },
): Promise<SearchRead> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(absolutePath, options.follow ? READ_FOLLOW : READ_NO_FOLLOW);
  } catch (error) {
    const code = errnoCode(error);
    return { skipped: code === 'ENXIO' || code === 'EOPNOTSUPP' ? 'special' : 'unreadable' };
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return { skipped: 'special' };
    if (stats.size > options.maxBytes) return { skipped: 'too large', size: stats.size };
    const bytes = await handle.readFile();
    if (bytes.subarray(0, BINARY_PROBE).includes(0)) return { skipped: 'binary' };
    return { bytes };
  } catch {
    return { skipped: 'unreadable' };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
