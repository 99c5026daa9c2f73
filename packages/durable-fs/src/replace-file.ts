import { randomInt } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { errnoCode, ioError } from './errors.js';
import { CREATE_EXCLUSIVE, type FsHandle, type FsLayer, nodeFsLayer } from './fs-layer.js';

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

/**
 * How far a write waits for the disk: `all` (the new bytes and the folder entry: survives a power
 * loss), `file` (the new bytes, not the folder entry: a power loss leaves the old or the new file,
 * never a torn one), `none` (nothing: survives a killed process, not a power loss).
 */
export type SyncLevel = 'all' | 'file' | 'none';

/** Options of {@link replaceFile}. */
export interface ReplaceFileOptions extends SyncDirectoryOptions {
  /** The new file's mode; by default the replaced file's mode, or 0o666 less the umask for a new file. */
  mode?: number | undefined;
  /** What to fsync ({@link SyncLevel}); `all` by default. */
  sync?: SyncLevel | undefined;
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
  await writeAndPlace(fs, path, bytes, `Replacing ${path}`, options.sync ?? 'all', {
    mode: async () => options.mode ?? (await modeOf(fs, path)),
    place: (temp) => fs.rename(temp, path),
  });
}

/** Errors of `link` that mean the file system has no hard links (FAT, some network file systems). */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Creates the file at `path` with `bytes`, refusing one that already exists, so that a crash
 * leaves either no file or the whole new one: writes and fsyncs a temp file `<name>.<number>` as
 * {@link replaceFile} does, hard-links it to `path` (which fails on an existing name), removes the
 * temp name and syncs the folder. Where the file system has no hard links, the temp file is renamed
 * after checking that `path` is free. An existing `path` throws `io_error` with `details.errno`
 * `'EEXIST'` and is left untouched; any failure removes the temp file.
 */
export async function createFile(
  path: string,
  bytes: Uint8Array,
  options: ReplaceFileOptions = {},
): Promise<void> {
  const fs = options.fs ?? nodeFsLayer;
  await writeAndPlace(fs, path, bytes, `Creating ${path}`, options.sync ?? 'all', {
    mode: async () => options.mode,
    place: async (temp) => {
      try {
        await fs.link(temp, path);
      } catch (error) {
        if (!NO_HARD_LINKS.has(errnoCode(error) ?? '')) throw error;
        if (await exists(fs, path)) {
          throw Object.assign(new Error(`${path} already exists`), { code: 'EEXIST' });
        }
        await fs.rename(temp, path);
        return;
      }
      // The new name is in place; a temp name left by a failed unlink is one isReplaceTempName finds.
      await fs.unlink(temp).catch(() => undefined);
    },
  });
}

/**
 * Writes `bytes` to a temp file beside `path`, lets `place` put it at `path` (after which the temp
 * name is gone), then syncs the folder (as `sync` says). Any failure before that removes the temp
 * file and throws `io_error` about `what`.
 */
async function writeAndPlace(
  fs: FsLayer,
  path: string,
  bytes: Uint8Array,
  what: string,
  sync: SyncLevel,
  steps: { mode: () => Promise<number | undefined>; place: (temp: string) => Promise<void> },
): Promise<void> {
  let temp: string | undefined;
  try {
    temp = await writeTempFile(fs, path, bytes, await steps.mode(), sync !== 'none');
    await steps.place(temp);
  } catch (error) {
    if (temp !== undefined) await fs.unlink(temp).catch(() => undefined);
    throw ioError(error, what, { path });
  }
  if (sync === 'all') await syncDirectory(dirname(path), { fs });
}

/** Writes `bytes` to a new temp file `<name>.<number>` beside `path` (fsynced if `fsync`); returns its path. */
async function writeTempFile(
  fs: FsLayer,
  path: string,
  bytes: Uint8Array,
  mode: number | undefined,
  fsync: boolean,
): Promise<string> {
  const folder = dirname(path);
  let handle: FsHandle | undefined;
  let temp = '';
  for (let attempt = 1; handle === undefined; attempt++) {
    temp = join(folder, `${basename(path)}.${randomInt(2 ** 32)}`);
    try {
      handle = await fs.open(temp, CREATE_EXCLUSIVE, mode ?? 0o666);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST' || attempt >= TEMP_NAME_ATTEMPTS) throw error;
    }
  }
  try {
    // The umask applies at open; an explicit or kept mode is set exactly.
    if (mode !== undefined) await fs.chmod(handle, mode);
    await fs.write(handle, bytes);
    if (fsync) await fs.sync(handle);
  } catch (error) {
    await fs.close(handle).catch(() => undefined);
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  try {
    await fs.close(handle);
  } catch (error) {
    await fs.unlink(temp).catch(() => undefined);
    throw error;
  }
  return temp;
}

/** Whether anything (a symlink too) is at `path`. */
async function exists(fs: FsLayer, path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw error;
  }
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
