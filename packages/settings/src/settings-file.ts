import { open, readFile, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { RepaError } from '@repa/protocol';
import { lock } from 'proper-lockfile';
import writeFileAtomic from 'write-file-atomic';
import { SettingsDocument, type SettingsFileKind } from './settings-document.js';
import type { SettingsRegistry } from './settings-registry.js';

/** How long to keep retrying a held cross-process lock (about 20 s in total) before `busy`. */
const LOCK_RETRIES = { retries: 400, factor: 1.2, minTimeout: 2, maxTimeout: 50, randomize: true };
/** A lock whose holder stopped refreshing it this long ago is taken over (proper-lockfile). */
const LOCK_STALE_MS = 10_000;

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Wraps a file-system failure as `io_error` naming the path; RepaErrors pass unchanged. */
export function ioError(error: unknown, path: string, action: string): RepaError {
  if (RepaError.isInstance(error)) return error;
  const reason = error instanceof Error ? error.message : String(error);
  return new RepaError('io_error', `Could not ${action} settings file ${path}: ${reason}`, {
    details: { path, ...(errorCode(error) === undefined ? {} : { errno: errorCode(error) }) },
    cause: error,
  });
}

/** Reads and validates a settings file; a missing file is an empty document. */
export async function readSettingsDocument(
  path: string,
  kind: SettingsFileKind,
  registry: SettingsRegistry,
): Promise<SettingsDocument> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return SettingsDocument.empty(path, kind, registry);
    throw ioError(error, path, 'read');
  }
  return SettingsDocument.parse(bytes, path, kind, registry);
}

/** Flushes a directory entry change (a rename) to disk; skipped where directories cannot sync. */
async function fsyncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r');
  try {
    await handle.sync();
  } catch (error) {
    // Some platforms and file systems refuse fsync on a directory; the rename itself is done.
    if (!['EINVAL', 'EPERM', 'EISDIR', 'EBADF', 'ENOTSUP'].includes(errorCode(error) ?? '')) {
      throw error;
    }
  } finally {
    await handle.close();
  }
}

/** Per-process queue per file, so calls of one process wait in order instead of polling the lock. */
const queues = new Map<string, Promise<void>>();

async function inProcessQueue<T>(path: string, task: () => Promise<T>): Promise<T> {
  const previous = queues.get(path) ?? Promise.resolve();
  const run = previous.then(task);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(path, tail);
  try {
    return await run;
  } finally {
    if (queues.get(path) === tail) queues.delete(path);
  }
}

async function acquireLock(path: string): Promise<() => Promise<void>> {
  try {
    return await lock(path, {
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: LOCK_RETRIES,
      // The default throws from a timer and crashes the process. A lock is only compromised when
      // its refresh fails for `stale` ms; the read-modify-write it guards takes milliseconds.
      onCompromised: () => {},
    });
  } catch (error) {
    if (errorCode(error) === 'ELOCKED') {
      throw new RepaError('busy', `Settings file ${path} stayed locked by another process.`, {
        fix: `Retry shortly. If no Repa process is running, remove the folder ${path}.lock.`,
        details: { path },
        cause: error,
      });
    }
    throw ioError(error, path, 'lock');
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

/**
 * Read-modify-write of one settings file under a cross-process lock: reads the current file,
 * lets `mutate` change it, then replaces it atomically (temp file in the same folder, fsync,
 * rename, folder fsync). A corrupt file throws `settings_corrupt` before anything is written.
 * Contract: `prepareDirectory` creates the file's folder; it runs before the lock is taken,
 * because the lock lives beside the file.
 */
export async function updateSettingsDocument<T>(
  path: string,
  kind: SettingsFileKind,
  registry: SettingsRegistry,
  prepareDirectory: () => Promise<void>,
  mutate: (document: SettingsDocument) => DocumentChange<T>,
): Promise<T> {
  return inProcessQueue(path, async () => {
    await prepareDirectory();
    const release = await acquireLock(path);
    let outcome: DocumentChange<T>;
    try {
      const document = await readSettingsDocument(path, kind, registry);
      outcome = mutate(document);
      if (outcome.changed) {
        const text = document.serialize();
        assertReadable(text, path, kind, registry);
        try {
          await writeFileAtomic(path, text, { encoding: 'utf8', fsync: true });
          const target = await realpath(path);
          await fsyncDirectory(dirname(target));
        } catch (error) {
          throw ioError(error, path, 'write');
        }
      }
    } finally {
      await release().catch(() => {});
    }
    return outcome.result;
  });
}
