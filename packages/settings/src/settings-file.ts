import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  errnoCode,
  type FsLayer,
  ioError,
  isReplaceTempName,
  nodeFsLayer,
  replaceFile,
  SerialQueue,
} from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { lock } from 'proper-lockfile';
import { SettingsDocument, type SettingsFileKind } from './settings-document.js';
import type { SettingsRegistry } from './settings-registry.js';

/** How long to keep retrying a held cross-process lock (about 20 s in total) before `busy`. */
const LOCK_RETRIES = { retries: 400, factor: 1.2, minTimeout: 2, maxTimeout: 50, randomize: true };
/** A lock whose holder stopped refreshing it this long ago is taken over (proper-lockfile). */
const LOCK_STALE_MS = 10_000;

/** Wraps a file-system failure as `io_error` naming the settings file; RepaErrors pass unchanged. */
export function settingsIoError(error: unknown, path: string, action: string): RepaError {
  return ioError(error, `${action} settings file ${path}`, { path });
}

/** Reads and validates a settings file; a missing file is an empty document. */
export async function readSettingsDocument(
  path: string,
  kind: SettingsFileKind,
  registry: SettingsRegistry,
  fs: FsLayer = nodeFsLayer,
): Promise<SettingsDocument> {
  let bytes: Uint8Array;
  try {
    bytes = await fs.readFile(path);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return SettingsDocument.empty(path, kind, registry);
    throw settingsIoError(error, path, 'Reading');
  }
  return SettingsDocument.parse(bytes, path, kind, registry);
}

/** Per-process queue per file, so calls of one process wait in order instead of polling the lock. */
const queue = new SerialQueue();

/** A cross-process lock held on one settings file. */
interface HeldLock {
  /** Throws `busy` unless the lock is provably still this writer's; call right before writing. */
  assertHeld(): Promise<void>;
  /** Releases the lock, unless it is no longer this writer's (then its holder's lock is left alone). */
  release(): Promise<void>;
}

/**
 * Ours is still ours when nobody removed its folder: proper-lockfile takes a stale lock over by
 * removing the folder and making a new one, so a folder with another inode or birth time is
 * someone else's. And it must not look stale right now, with a margin for the rename that follows:
 * proper-lockfile refreshes the mtime every half stale time; only a stalled event loop lets it age.
 */
const STALE_MARGIN = 0.75;

async function acquireLock(path: string): Promise<HeldLock> {
  const lockPath = `${path}.lock`;
  let compromised: Error | undefined;
  let takenOver = false;
  let release: () => Promise<void>;
  try {
    release = await lock(path, {
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: LOCK_RETRIES,
      // The default throws from a timer and crashes the process; instead the write that holds the
      // lock fails in `assertHeld`.
      onCompromised: (error) => {
        compromised = error;
      },
    });
  } catch (error) {
    if (errnoCode(error) === 'ELOCKED') {
      throw new RepaError('busy', `Settings file ${path} stayed locked by another process.`, {
        fix: `Retry shortly. If no Repa process is running, remove the folder ${lockPath}.`,
        details: { path },
        cause: error,
      });
    }
    throw settingsIoError(error, path, 'Locking');
  }
  let owned: Stats;
  try {
    owned = await stat(lockPath);
  } catch (error) {
    await release().catch(() => {});
    throw settingsIoError(error, path, 'Locking');
  }
  const lost = (reason: string, cause?: unknown) =>
    new RepaError('busy', `Lost the lock of settings file ${path} before writing: ${reason}.`, {
      fix: 'Nothing was written; retry the change (another process may have changed the file).',
      details: { path },
      cause,
    });
  return {
    async assertHeld() {
      if (compromised !== undefined) throw lost(compromised.message, compromised);
      let now: Stats;
      try {
        now = await stat(lockPath);
      } catch (error) {
        if (errnoCode(error) === 'ENOENT') {
          takenOver = true; // a folder made there later is someone else's
          throw lost('its lock folder was removed');
        }
        throw settingsIoError(error, path, 'Checking the lock of');
      }
      if (now.ino !== owned.ino || now.birthtimeMs !== owned.birthtimeMs) {
        takenOver = true;
        throw lost('another process took the lock over');
      }
      if (Date.now() - now.mtimeMs > LOCK_STALE_MS * STALE_MARGIN) {
        throw lost('it was not refreshed for so long that another process may take it over');
      }
    },
    release: () => (compromised === undefined && !takenOver ? release() : Promise.resolve()),
  };
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
