import { basename, dirname, join } from 'node:path';
import {
  acquireFileLock,
  errnoCode,
  type FileLock,
  type FsHandle,
  type FsLayer,
  ioError,
  isReplaceTempName,
  nodeFsLayer,
  READ_FOLLOW,
  READ_NO_FOLLOW,
  replaceFile,
  SerialQueue,
} from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { SettingsDocument, type SettingsFileKind } from './settings-document.js';
import type { SettingsRegistry } from './settings-registry.js';

/** A lock whose holder stopped refreshing it this long ago is taken over (proper-lockfile). */
const LOCK_STALE_MS = 10_000;

/** Wraps a file-system failure as `io_error` naming the settings file; RepaErrors pass unchanged. */
export function settingsIoError(error: unknown, path: string, action: string): RepaError {
  return ioError(error, `${action} settings file ${path}`, { path });
}

/**
 * The largest settings file Repa reads or writes, in bytes. A larger one is `data_too_large`,
 * found from its size before any of it is read; a write that would pass it is refused.
 */
export const SETTINGS_FILE_LIMIT = 4 * 1024 * 1024;

/**
 * Reads and validates a settings file; a missing file is an empty document. Never waits on a FIFO
 * or device (`settings_corrupt`: not a regular file), never reads a space's file through a symlink,
 * and never reads more than {@link SETTINGS_FILE_LIMIT} bytes and one.
 */
export async function readSettingsDocument(
  path: string,
  kind: SettingsFileKind,
  registry: SettingsRegistry,
  fs: FsLayer = nodeFsLayer,
): Promise<SettingsDocument> {
  let handle: FsHandle;
  try {
    // The application file may be a symlink (a dotfiles setup); a space's never is (spec R16).
    handle = await fs.open(path, kind === 'space' ? READ_NO_FOLLOW : READ_FOLLOW);
  } catch (error) {
    const code = errnoCode(error);
    if (code === 'ENOENT') return SettingsDocument.empty(path, kind, registry);
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'EOPNOTSUPP') throw notRegular(path);
    throw settingsIoError(error, path, 'Reading');
  }
  let bytes: Buffer;
  try {
    const stats = await fs.fstat(handle);
    if (!stats.isFile()) throw notRegular(path);
    if (stats.size > BigInt(SETTINGS_FILE_LIMIT)) throw tooLarge(path, stats.size);
    bytes = await fs.readAt(handle, SETTINGS_FILE_LIMIT + 1, 0);
    if (bytes.length > SETTINGS_FILE_LIMIT) throw tooLarge(path, bytes.length);
  } catch (error) {
    if (RepaError.isInstance(error)) throw error;
    throw settingsIoError(error, path, 'Reading');
  } finally {
    await fs.close(handle).catch(() => undefined);
  }
  return SettingsDocument.parse(bytes, path, kind, registry);
}

function notRegular(path: string): RepaError {
  return new RepaError(
    'settings_corrupt',
    `Settings file ${path} is not a regular file (a symlink, FIFO, device or socket).`,
    {
      fix: `Remove ${path}; Repa reads settings only from a regular file.`,
      details: { path, problem: 'not a regular file' },
    },
  );
}

function tooLarge(path: string, size: number | bigint): RepaError {
  return new RepaError(
    'data_too_large',
    `Settings file ${path} has ${size} bytes; Repa reads at most ${SETTINGS_FILE_LIMIT}.`,
    {
      fix: `Remove ${path} or cut it down to the overrides you use (settings hold short prompt texts).`,
      details: { path, size: Number(size), limit: SETTINGS_FILE_LIMIT },
    },
  );
}

/** Per-process queue per file, so calls of one process wait in order instead of polling the lock. */
const queue = new SerialQueue();

/** Takes the cross-process lock of one settings file (`<file>.lock`). */
function acquireLock(path: string): Promise<FileLock> {
  return acquireFileLock(path, {
    staleMs: LOCK_STALE_MS,
    busy: (cause) =>
      new RepaError('busy', `Settings file ${path} stayed locked by another process.`, {
        fix: `Retry shortly. If no Repa process is running, remove the folder ${path}.lock.`,
        details: { path },
        cause,
      }),
    lost: (reason, cause) =>
      new RepaError('busy', `Lost the lock of settings file ${path} before writing: ${reason}.`, {
        fix: 'Nothing was written; retry the change (another process may have changed the file).',
        details: { path },
        cause,
      }),
  });
}

/**
 * Removes temp files a killed writer left beside the settings file. Runs under the lock, so no
 * other writer is between its temp file and its rename, except one whose lock went stale: only temp
 * files older than the lock's stale time are removed. Best effort: a failure never fails the write.
 */
async function removeStaleTempFiles(fs: FsLayer, target: string): Promise<void> {
  const folder = dirname(target);
  const fileName = basename(target);
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  for (const name of names.filter((entry) => isReplaceTempName(fileName, entry))) {
    const file = join(folder, name);
    try {
      const stats = await fs.lstat(file);
      if (stats.isFile() && Date.now() - Number(stats.mtimeMs) > LOCK_STALE_MS) {
        await fs.unlink(file);
      }
    } catch {
      // Removed meanwhile, or not ours to remove: left for the next write.
    }
  }
}

/** The file a write replaces: the target of a symlink at `path` (kept as a link), else `path`. */
async function writeTarget(fs: FsLayer, path: string): Promise<string> {
  try {
    return await fs.realpath(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return path;
    throw error;
  }
}

/** Contract: never write a file this version would itself report as corrupt. */
function assertReadable(
  text: string,
  path: string,
  kind: SettingsFileKind,
  registry: SettingsRegistry,
): void {
  try {
    SettingsDocument.parse(new TextEncoder().encode(text), path, kind, registry);
  } catch (error) {
    throw new RepaError('internal', `Refused to write settings ${path} that would not read back.`, {
      cause: error,
    });
  }
}

/** Refuses a write that would make the file larger than {@link SETTINGS_FILE_LIMIT}. */
function assertWithinLimit(text: string, path: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= SETTINGS_FILE_LIMIT) return;
  throw new RepaError(
    'invalid_request',
    `Settings file ${path} would take ${bytes} bytes; the limit is ${SETTINGS_FILE_LIMIT} bytes.`,
    {
      fix: 'Set a shorter value, or reset overrides no longer used (settings reset).',
      details: { path, bytes, limit: SETTINGS_FILE_LIMIT },
    },
  );
}

/** The outcome of a mutation: whether to write, and what to return. */
export interface DocumentChange<T> {
  /** Write the document back (false leaves the file untouched). */
  readonly changed: boolean;
  /** Returned to the caller of {@link updateSettingsDocument}. */
  readonly result: T;
}

/** Options of {@link updateSettingsDocument}. */
export interface UpdateOptions {
  /** Checks the file's folder is still safe; runs under the lock, before reading and writing. */
  verify?: (() => Promise<void>) | undefined;
  /** The file system to read and write through (tests inject faults here); the real one by default. */
  fs?: FsLayer | undefined;
}

/**
 * Read-modify-write of one settings file under a cross-process lock: reads the current file,
 * lets `mutate` change it, then replaces it atomically with `@repa/durable-fs`'s `replaceFile`
 * (temp file in the same folder, fsync, rename, folder fsync); a failure throws `io_error` and
 * leaves the old file. A corrupt file throws `settings_corrupt` before anything is written; a
 * lock that is no longer provably held throws `busy` before anything is written. Temp files left
 * by killed writers are removed on the next write.
 * Contract: `prepareDirectory` creates the file's folder; it runs before the lock is taken,
 * because the lock lives beside the file.
 */
export async function updateSettingsDocument<T>(
  path: string,
  kind: SettingsFileKind,
  registry: SettingsRegistry,
  prepareDirectory: () => Promise<void>,
  mutate: (document: SettingsDocument) => DocumentChange<T>,
  options: UpdateOptions = {},
): Promise<T> {
  const fs = options.fs ?? nodeFsLayer;
  return queue.run(path, async () => {
    await prepareDirectory();
    const held = await acquireLock(path);
    let outcome: DocumentChange<T>;
    try {
      await options.verify?.();
      const document = await readSettingsDocument(path, kind, registry, fs);
      outcome = mutate(document);
      if (outcome.changed) {
        const text = document.serialize();
        assertWithinLimit(text, path);
        assertReadable(text, path, kind, registry);
        try {
          const target = await writeTarget(fs, path);
          await removeStaleTempFiles(fs, target);
          await options.verify?.();
          await held.assertHeld();
          await replaceFile(target, new TextEncoder().encode(text), { fs });
        } catch (error) {
          throw settingsIoError(error, path, 'Writing');
        }
      }
    } finally {
      await held.release().catch(() => {});
    }
    return outcome.result;
  });
}
