import { randomInt } from 'node:crypto';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { errnoCode, ioError } from './errors.js';
import { CREATE_EXCLUSIVE, type FsLayer, nodeFsLayer } from './fs-layer.js';

/**
 * Errors of an fsync on a folder that mean the file system does not support it (some platforms,
 * network and FUSE file systems): the rename before it is done, so the sync counts as done.
 */
const UNSUPPORTED_FOLDER_SYNC = new Set([
  'EINVAL',
  'ENOTSUP',
  'EOPNOTSUPP',
  'EPERM',
  'EISDIR',
  'EBADF',
]);

/** How often a temp name that already exists is drawn again before giving up. */
const TEMP_NAME_ATTEMPTS = 8;

/** Options of {@link syncDirectory}. */
export interface SyncDirectoryOptions {
  /** The file system to use (tests inject faults here); the real one by default. */
  fs?: FsLayer | undefined;
}

/** Options of {@link replaceFile}. */
export interface ReplaceFileOptions extends SyncDirectoryOptions {
  /** The new file's mode; by default the replaced file's mode, or 0o666 less the umask for a new file. */
  mode?: number | undefined;
}

/**
 * Flushes a folder's entries (renames, new and removed names) to disk. A refusal that means the
 * file system cannot sync folders (EINVAL, ENOTSUP, EOPNOTSUPP, EPERM, EISDIR, EBADF) counts as
 * done; any other failure throws `io_error`.
 */
export async function syncDirectory(
  path: string,
  options: SyncDirectoryOptions = {},
): Promise<void> {
  const fs = options.fs ?? nodeFsLayer;
  try {
    await fs.syncDir(path);
  } catch (error) {
    if (UNSUPPORTED_FOLDER_SYNC.has(errnoCode(error) ?? '')) return;
    throw ioError(error, `Syncing the folder ${path}`, { path });
  }
}

/** Whether `name` is a temp file {@link replaceFile} makes beside a file named `fileName`. */
export function isReplaceTempName(fileName: string, name: string): boolean {
  return name.startsWith(`${fileName}.`) && /^\d{1,10}$/.test(name.slice(fileName.length + 1));
}

/**
 * Replaces the file at `path` with `bytes` so that a crash leaves either the old or the new file:
 * writes a new temp file `<name>.<number>` (created exclusively) in the same folder, fsyncs it,
 * renames it over `path` and syncs the folder ({@link syncDirectory}). `path` is replaced as it
 * is (a symlink there is replaced, not followed). Any failure throws `io_error` and removes the
 * temp file; the old file is then untouched.
 */
export async function replaceFile(
  path: string,
  bytes: Uint8Array,
  options: ReplaceFileOptions = {},
): Promise<void> {
  const fs = options.fs ?? nodeFsLayer;
  const folder = dirname(path);
  const what = `Replacing ${path}`;
  let temp: string | undefined;
  try {
    const mode = options.mode ?? (await modeOf(fs, path));
    let handle: FileHandle | undefined;
    for (let attempt = 1; handle === undefined; attempt++) {
      const candidate = join(folder, `${basename(path)}.${randomInt(2 ** 32)}`);
      try {
        handle = await fs.open(candidate, CREATE_EXCLUSIVE, mode ?? 0o666);
        temp = candidate;
      } catch (error) {
        if (errnoCode(error) !== 'EEXIST' || attempt >= TEMP_NAME_ATTEMPTS) throw error;
      }
    }
    try {
      // The umask applies at open; an explicit or kept mode is set exactly.
      if (mode !== undefined) await fs.chmod(handle, mode);
      await fs.write(handle, bytes);
      await fs.sync(handle);
    } finally {
      await fs.close(handle);
    }
    await fs.rename(temp as string, path);
    temp = undefined;
  } catch (error) {
    if (temp !== undefined) await fs.unlink(temp).catch(() => undefined);
    throw ioError(error, what, { path });
  }
  await syncDirectory(folder, { fs });
}

/** The permission bits of the regular file at `path`; undefined when there is none. */
async function modeOf(fs: FsLayer, path: string): Promise<number | undefined> {
  try {
    const stats = await fs.lstat(path);
    return stats.isFile() ? Number(stats.mode & 0o7777n) : undefined;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}
