import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { errnoCode, type FsHandle, ioError, READ_NO_FOLLOW } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { isSocketOpenError } from '../files/index.js';
import { fileTooLarge, holdSpace, MAX_READ_BYTES, parseSpacePath } from '../space/index.js';
import type { ContentStore } from './content-store.js';

/** How much of a file is read and hashed between two turns of the event loop. */
const SLICE_BYTES = 512 * 1024;

/** What {@link inspectSpaceFile} found at a path of the space. */
export interface InspectedFile {
  /** The path relative to the space root, as a tool call names it (`/`-separated). */
  path: string;
  /**
   * The regular file there: the sha256 (hex) of all its bytes, its size, its modification time
   * (ms, with the fraction the file system gives) and its first bytes; `null` when there is none;
   * `'unchanged'` (the size and mtime known) or `'changed'` (another size than known) when
   * nothing was read.
   */
  file:
    | { version: string; size: number; mtimeMs: number; head: Buffer }
    | 'unchanged'
    | 'changed'
    | null;
}

/**
 * The version, size, mtime and first `headBytes` bytes of the file at `path`, a space path given
 * now or recorded earlier (a learning context's source), checked exactly as a tool call's:
 * `parseSpacePath`, the canonical walk (`path_outside_space` for a link leaving the space,
 * `protected_path` into `.repa`), then opened without following a link or waiting on a FIFO.
 * No regular file there is `file: null`; with `known`, its size and mtime still is
 * `file: 'unchanged'` and another size `file: 'changed'` (nothing read either way); past 256 MiB
 * it is `file_too_large`. Hashed in slices that let the event loop run;
 * assigns no identity and writes nothing.
 */
export async function inspectSpaceFile(
  store: ContentStore,
  path: string,
  options: { headBytes: number; known?: { size?: number; mtimeMs?: number } },
): Promise<InspectedFile> {
  const { space } = store;
  const { fs } = space;
  return holdSpace(store.root, 'shared', async () => {
    const checked = parseSpacePath(path);
    const location = await space.canonical(checked);
    const shown = JSON.stringify(checked);
    let handle: FsHandle;
    try {
      handle = await fs.open(location.absolutePath, READ_NO_FOLLOW);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR' || isSocketOpenError(error)) {
        return { path: checked, file: null };
      }
      if (code === 'ELOOP') {
        throw new RepaError('path_outside_space', `${shown} changed into a symlink while reading.`);
      }
      throw ioError(error, `Reading ${shown}`);
    }
    try {
      const stats = await fs.fstat(handle);
      if (!stats.isFile()) return { path: checked, file: null };
      const size = Number(stats.size);
      const mtimeMs = Number(stats.mtimeMs) + Number(stats.mtimeNs % 1_000_000n) / 1e6;
      const { known } = options;
      if (known?.size === size && known.mtimeMs === mtimeMs) {
        return { path: checked, file: 'unchanged' };
      }
      // Bytes of another length have another hash: none is computed.
      if (known?.size !== undefined && known.size !== size)
        return { path: checked, file: 'changed' };
      if (stats.size > BigInt(MAX_READ_BYTES)) throw fileTooLarge(shown, stats.size);
      const hash = createHash('sha256');
      const head: Buffer[] = [];
      let kept = 0;
      let total = 0;
      for (;;) {
        const slice = await fs.readAt(handle, SLICE_BYTES, total);
        hash.update(slice);
        total += slice.length;
        // It grew while it was read.
        if (total > MAX_READ_BYTES) throw fileTooLarge(shown, total);
        if (kept < options.headBytes) {
          const part = slice.subarray(0, options.headBytes - kept);
          head.push(Buffer.from(part));
          kept += part.length;
        }
        if (slice.length < SLICE_BYTES) break;
        await nextTurn();
      }
      const version = hash.digest('hex');
      return { path: checked, file: { version, size: total, mtimeMs, head: Buffer.concat(head) } };
    } catch (error) {
      throw ioError(error, `Reading ${shown}`);
    } finally {
      await fs.close(handle).catch(() => undefined);
    }
  });
}
