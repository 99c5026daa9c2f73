import { constants, lstatSync } from 'node:fs';
import { type FileHandle, lstat, mkdir, open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type FileEntry, SessionManager } from '@earendil-works/pi-coding-agent';
import {
  createFile,
  errnoCode,
  type FsLayer,
  ignoreFolderContents,
  nodeFsLayer,
  READ_NO_FOLLOW,
  replaceFile,
} from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import type { z } from 'zod';
import {
  type IntactPrefix,
  inspectSessionBytes,
  type SessionFileCheck,
  sessionHeaderSchema,
} from './session-file-inspect.js';
import { assertRealFolders, sessionIdOfFileName } from './session-folders.js';
import { summaryOf } from './session-text.js';

export type { SessionFileCheck } from './session-file-inspect.js';

/**
 * The largest session file Repa reads or hands to Pi: 256 MiB, far more than a long session's
 * history (a day of work is a few MiB; images are the big entries). A larger file is listed as
 * damaged with `data_too_large` and never read.
 */
export const SESSION_FILE_LIMIT = 256 * 1024 * 1024;

/** Parsed entries of cached sound files are dropped (to be read again) beyond this many file bytes. */
const ENTRY_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * What one look at a session file found; cached by the file's stat key.
 */
export interface SessionFileState {
  /** The header's id; for an unreadable header, the id in Pi's file name (`<time>_<id>.jsonl`). */
  sessionId: string;
  /** The header's timestamp; for an unreadable header, the time in Pi's file name. */
  createdAt: string | undefined;
  /** The file's modification time. */
  modifiedAt: string;
  /** The check of a sound file. */
  check?: SessionFileCheck;
  /** The name and last activity of a sound file, as Pi's listing shows them. */
  summary?: { name?: string; lastActivity?: number };
  /** The file's size in bytes. */
  bytes?: number;
  /**
   * The entries of a sound file as Pi loads them (header first); dropped from the cache when the
   * cached entries pass 64 MiB of files (read them with {@link sessionFileEntries}).
   */
  entries?: FileEntry[];
  /** Why the file is damaged (`session_damaged`, its quarantine copy in `details`). */
  damage?: RepaError;
}

const MAX_CACHED_FILES = 256;
const states = new Map<string, { key: string; state: Promise<SessionFileState> }>();
/** Cached states that still hold their entries, oldest first, and the bytes of their files. */
const withEntries = new Set<SessionFileState>();
let entryBytes = 0;

/** `not_found` when the file is gone, `io_error` when it is there but cannot be read. */
function unreadable(path: string, cause: unknown): RepaError {
  if (errnoCode(cause) === 'ENOENT') {
    return new RepaError('not_found', `Session file ${path} does not exist.`, { cause });
  }
  return new RepaError('io_error', `Session file ${path} cannot be read.`, { cause });
}

function damaged(
  path: string,
  found: { problem: string; details?: Record<string, unknown>; intact?: IntactPrefix },
  copy: string | Error,
): RepaError {
  const kept = typeof copy === 'string';
  const { problem, intact } = found;
  const keep =
    intact === undefined
      ? ''
      : ` To keep the history up to entry ${intact.entryId}, move the file out of ${dirname(path)} and write back only its first ${intact.line} lines (head -n ${intact.line}).`;
  const copyText = kept
    ? ` The file was left untouched; a byte copy is kept at ${copy}.`
    : ' The file was left untouched.';
  return new RepaError('session_damaged', `Session file ${path} is damaged: ${problem}.`, {
    details: {
      path,
      problem,
      ...found.details,
      ...(kept ? { quarantine: copy } : { quarantineFailed: copy.message }),
    },
    ...(kept || intact
      ? {
          fix: `Restore the session file from a backup or start a new session.${keep}${copyText}`,
        }
      : {}),
  });
}

/**
 * Keeps a byte copy of a damaged file as `quarantine/<name>.<mtime>` next to it, once per damaged
 * state (the name comes from the file's mtime), and never touches the original.
 */
async function quarantine(path: string, bytes: Buffer, mtime: Date): Promise<string> {
  const stamp = mtime.toISOString().replace(/[:.]/g, '-');
  const target = join(dirname(path), 'quarantine', `${basename(path)}.${stamp}`);
  // The quarantine folder is part of the space too: never written through a symlink.
  assertRealFolders(dirname(path), dirname(target));
  const existing = await lstat(target).catch(() => undefined);
  if (existing?.size !== bytes.length) {
    await mkdir(dirname(target), { recursive: true });
    await replaceFile(target, bytes, { mode: 0o600 });
  }
  return target;
}

/** A session file listed as damaged by `damage` (its id and creation time from its name), unread. */
function listedDamaged(path: string, mtime: Date, damage: RepaError): SessionFileState {
  const named = sessionIdOfFileName(path);
  return {
    sessionId: named.sessionId,
    createdAt: named.createdAt,
    modifiedAt: mtime.toISOString(),
    damage,
  };
}

/** A symlink, FIFO, device or socket named like a session: listed as damaged, never opened. */
function notRegular(path: string, mtime: Date): SessionFileState {
  return listedDamaged(
    path,
    mtime,
    new RepaError(
      'session_damaged',
      `Session file ${path} is not a regular file (a symlink, FIFO, device or socket).`,
      {
        fix: 'Remove it from the session folder; Repa reads only regular session files.',
        details: { path, problem: 'not a regular file' },
      },
    ),
  );
}

/** A regular file past {@link SESSION_FILE_LIMIT}: listed as damaged, never read. */
function tooLarge(path: string, size: number, mtime: Date): SessionFileState {
  return listedDamaged(
    path,
    mtime,
    new RepaError(
      'data_too_large',
      `Session file ${path} has ${size} bytes; Repa reads session files of at most ${SESSION_FILE_LIMIT}.`,
      {
        fix: `Move it out of ${dirname(path)} (Repa neither reads nor continues it), then start a new session.`,
        details: { path, size, limit: SESSION_FILE_LIMIT },
      },
    ),
  );
}

/**
 * The file's bytes to its end (it may have grown since `size` was seen), or null once they pass
 * {@link SESSION_FILE_LIMIT}. Read through the thread pool in slices; nothing past the limit.
 */
async function readBounded(handle: FileHandle, size: number): Promise<Buffer | null> {
  let buffer = Buffer.allocUnsafe(Math.min(size, SESSION_FILE_LIMIT) + 1);
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      if (total > SESSION_FILE_LIMIT) return null;
      const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, SESSION_FILE_LIMIT + 1));
      buffer.copy(larger, 0, 0, total);
      buffer = larger;
    }
    const { bytesRead } = await handle.read(buffer, total, buffer.length - total, total);
    if (bytesRead === 0) break;
    total += bytesRead;
  }
  return total > SESSION_FILE_LIMIT ? null : buffer.subarray(0, total);
}

async function look(path: string): Promise<SessionFileState> {
  let bytes: Buffer | null;
  let mtime: Date;
  try {
    // Never through a symlink, never waiting on a FIFO: a space's files are untrusted input.
    const handle = await open(path, READ_NO_FOLLOW);
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return notRegular(path, stats.mtime);
      mtime = stats.mtime;
      if (stats.size > SESSION_FILE_LIMIT) return tooLarge(path, stats.size, mtime);
      bytes = await readBounded(handle, stats.size);
      if (bytes === null) return tooLarge(path, (await handle.stat()).size, mtime);
    } finally {
      await handle.close();
    }
  } catch (cause) {
    const code = errnoCode(cause);
    if (code === 'ELOOP' || code === 'ENXIO' || code === 'EOPNOTSUPP') {
      return notRegular(path, new Date());
    }
    throw unreadable(path, cause);
  }
  const found = await inspectSessionBytes(bytes);
  if ('check' in found) {
    const header = found.entries[0] as { timestamp: string };
    return {
      sessionId: found.check.sessionId,
      createdAt: header.timestamp,
      modifiedAt: mtime.toISOString(),
      check: found.check,
      summary: summaryOf(found.entries),
      bytes: bytes.length,
      entries: found.entries,
    };
  }
  // The header's identity when it still reads; else the one Pi put in the file name.
  const newline = bytes.indexOf(10);
  const firstLine = bytes.subarray(0, newline === -1 ? bytes.length : newline).toString('utf8');
  let header: z.infer<typeof sessionHeaderSchema> | undefined;
  try {
    header = sessionHeaderSchema.safeParse(JSON.parse(firstLine)).data;
  } catch {
    header = undefined;
  }
  const named = sessionIdOfFileName(path);
  const copy = await quarantine(path, bytes, mtime).catch((error: unknown) =>
    error instanceof Error ? error : new Error(String(error)),
  );
  return {
    sessionId: header?.id ?? named.sessionId,
    createdAt: header?.timestamp ?? named.createdAt,
    modifiedAt: mtime.toISOString(),
    damage: damaged(path, found, copy),
  };
}

/** Keeps the entries of at most 64 MiB of cached files: the oldest lose theirs first. */
function cacheEntries(state: SessionFileState): void {
  if (state.entries === undefined || state.bytes === undefined) return;
  withEntries.add(state);
  entryBytes += state.bytes;
  for (const oldest of withEntries) {
    if (entryBytes <= ENTRY_CACHE_BYTES || oldest === state) break;
    forgetEntries(oldest);
  }
}

function forgetEntries(state: SessionFileState): void {
  if (!withEntries.delete(state)) return;
  entryBytes -= state.bytes ?? 0;
  state.entries = undefined;
}

/**
 * Looks at a session file once per state: the result is cached by the file's stat key (device,
 * inode, size, mtime), so an unchanged file is never read twice. Never writes the file.
 * @internal
 */
export async function sessionFileState(path: string): Promise<SessionFileState> {
  let key: string;
  try {
    const stats = await lstat(path, { bigint: true });
    key = `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;
  } catch (cause) {
    drop(path);
    throw unreadable(path, cause);
  }
  const cached = states.get(path);
  if (cached?.key === key) return cached.state;
  const state = look(path);
  drop(path);
  states.set(path, { key, state });
  state.then(cacheEntries, () => {
    if (states.get(path)?.state === state) states.delete(path);
  });
  if (states.size > MAX_CACHED_FILES) {
    const oldest = states.keys().next().value;
    if (oldest !== undefined) drop(oldest);
  }
  return state;
}

/** Removes a file's cached state (and the entries it holds). */
function drop(path: string): void {
  const cached = states.get(path);
  if (cached === undefined) return;
  states.delete(path);
  void cached.state.then(forgetEntries, () => undefined);
}

/**
 * The entries of a sound session file (header first), from the cache or read again; throws the
 * file's damage.
 */
export async function sessionFileEntries(path: string): Promise<FileEntry[]> {
  const state = await sessionFileState(path);
  if (state.damage) throw state.damage;
  if (state.entries) return state.entries;
  const again = await look(path);
  if (again.damage) throw again.damage;
  return again.entries ?? [];
}

/**
 * Checks a Pi session file before it is read or continued, and never writes it. A torn last line
 * is reported (`tornLastLine`); NUL bytes, a damaged header (including a missing or old version,
 * which Pi would migrate and rewrite) or a broken parent chain throw `session_damaged`, after a
 * byte copy of the file is kept in `quarantine/` beside it. Cached by the file's stat key.
 *
 * Contract: Pi 0.87.1 silently migrates (and rewrites) a file whose header lacks a current version,
 * skips malformed lines and appends a newline to a torn file when it opens one; this check runs
 * first so none of these can hide damage.
 */
export async function checkSessionFile(path: string): Promise<SessionFileCheck> {
  const state = await sessionFileState(path);
  if (state.damage) throw state.damage;
  if (!state.check) throw new RepaError('internal', `Session file ${path} was not checked.`);
  return state.check;
}

/** Options of {@link createSessionFile}. */
export interface CreateSessionFileOptions {
  /** The file system to write through (tests inject faults here); the real one by default. @internal */
  fs?: FsLayer | undefined;
}

/**
 * Creates a new Pi session file in `sessionDir` and writes its header at once with
 * `@repa/durable-fs`'s `createFile` (temp + fsync + link, never over an existing file, folder
 * fsync), so the new session's identity is recoverable before its first message (spec R48: Pi
 * 0.87.1 writes nothing until the first assistant reply). A failure throws `io_error` and leaves
 * no session file.
 */
export async function createSessionFile(
  cwd: string,
  sessionDir: string,
  options: CreateSessionFileOptions = {},
): Promise<string> {
  assertRealFolders(cwd, sessionDir);
  const made = await mkdir(sessionDir, { recursive: true });
  // A space's own `.repa/` made here is never committed or shared by accident.
  if (made === join(cwd, '.repa')) await ignoreFolderContents(made);
  assertRealFolders(cwd, sessionDir);
  const manager = SessionManager.create(cwd, sessionDir);
  const file = manager.getSessionFile();
  const header = manager.getHeader();
  if (!file || !header) throw new RepaError('internal', 'Pi did not assign a session file.');
  await createFile(file, Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), {
    mode: 0o600,
    fs: options.fs ?? nodeFsLayer,
  });
  return file;
}

/** Appending a repair newline: never through a symlink, never waiting on a FIFO. */
const APPEND_NO_FOLLOW =
  constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * Checks and opens a Pi session file to continue it; see {@link checkSessionFile}. Only here is a
 * torn last line repaired (spec R92): a newline is appended and synced, so the original bytes stay
 * a prefix. `cwd` (the space root) replaces the working directory recorded in the header for this
 * process only; the file is not rewritten. A path found earlier is checked again first: a folder
 * between `cwd` and the file that became a link since is `space_unsafe`, never followed.
 */
export async function openSessionFile(path: string, cwd?: string): Promise<SessionManager> {
  if (cwd !== undefined) assertRealFolders(cwd, dirname(path));
  const check = await checkSessionFile(path);
  if (check.tornLastLine) {
    const handle = await open(path, APPEND_NO_FOLLOW);
    try {
      await handle.appendFile('\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  // Pi reads the file synchronously: checked again on this thread right before, so nothing can
  // run in between (a FIFO there would hold the whole process, a folder turned link a file elsewhere).
  if (cwd !== undefined) assertRealFolders(cwd, dirname(path));
  const stats = lstatSync(path);
  if (!stats.isFile()) throw notRegular(path, stats.mtime).damage;
  if (stats.size > SESSION_FILE_LIMIT) throw tooLarge(path, stats.size, stats.mtime).damage;
  return SessionManager.open(path, dirname(path), cwd);
}
