import { lstat, mkdir, open, readdir } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import {
  CURRENT_SESSION_VERSION,
  type FileEntry,
  SessionManager,
} from '@earendil-works/pi-coding-agent';
import {
  createFile,
  errnoCode,
  type FsLayer,
  nodeFsLayer,
  READ_NO_FOLLOW,
  replaceFile,
} from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { z } from 'zod';

const headerSchema = z.looseObject({
  type: z.literal('session'),
  version: z.literal(CURRENT_SESSION_VERSION),
  id: z.string().min(1),
  timestamp: z.string(),
  cwd: z.string(),
});

const entrySchema = z.looseObject({
  type: z.string().min(1),
  id: z.string().min(1),
  parentId: z.string().nullable(),
});

/** What {@link checkSessionFile} found. */
export interface SessionFileCheck {
  /** The session id from the header. */
  sessionId: string;
  /** Entries with a valid id and parent. */
  entries: number;
  /** True when the last line has no newline (a torn write); {@link openSessionFile} repairs it. */
  tornLastLine: boolean;
}

/**
 * What one look at a session file found; cached by the file's stat key.
 * @internal
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
  /** The entries of a sound file as Pi loads them (header first). */
  entries?: FileEntry[];
  /** Why the file is damaged (`session_damaged`, its quarantine copy in `details`). */
  damage?: RepaError;
}

const MAX_CACHED_FILES = 256;
const states = new Map<string, { key: string; state: Promise<SessionFileState> }>();

/** Pi names session files `<timestamp with - for : and .>_<session id>.jsonl`. */
const PI_FILE_NAME = /^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})-(\d{3}Z)_(.+)\.jsonl$/;

/**
 * The session id (and creation time) Pi put in a session file's name.
 * @internal
 */
export function sessionIdOfFileName(path: string): { sessionId: string; createdAt?: string } {
  const name = basename(path);
  const match = PI_FILE_NAME.exec(name);
  if (match) {
    const [, dateAndHour, minutes, seconds, millis, sessionId] = match;
    return {
      sessionId: sessionId ?? '',
      createdAt: `${dateAndHour}:${minutes}:${seconds}.${millis}`,
    };
  }
  return { sessionId: name.replace(/\.jsonl$/, '') };
}

/** `not_found` when the file is gone, `io_error` when it is there but cannot be read. */
function unreadable(path: string, cause: unknown): RepaError {
  if (errnoCode(cause) === 'ENOENT') {
    return new RepaError('not_found', `Session file ${path} does not exist.`, { cause });
  }
  return new RepaError('io_error', `Session file ${path} cannot be read.`, { cause });
}

function damaged(path: string, problem: string, copy: string | Error): RepaError {
  const kept = typeof copy === 'string';
  return new RepaError('session_damaged', `Session file ${path} is damaged: ${problem}.`, {
    details: {
      path,
      problem,
      ...(kept ? { quarantine: copy } : { quarantineFailed: copy.message }),
    },
    ...(kept
      ? {
          fix: `Restore the session file from a backup or start a new session; the file was left untouched and a byte copy is kept at ${copy}.`,
        }
      : {}),
  });
}

/** What is wrong with a session file's bytes, or its check and entries when it is sound. */
function inspect(
  bytes: Buffer,
): { problem: string } | { check: SessionFileCheck; entries: FileEntry[] } {
  // JSON text never holds a raw NUL; NULs are blocks a crash never wrote (e.g. after a power loss).
  const nul = bytes.indexOf(0);
  if (nul !== -1) {
    const line = bytes.subarray(0, nul).toString('utf8').split('\n').length;
    return {
      problem: `NUL bytes from byte ${nul} (line ${line}); the data there was never written`,
    };
  }
  const text = bytes.toString('utf8');
  const parsed: unknown[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      parsed.push(JSON.parse(line));
    } catch {
      // Skipped like Pi does (a torn line from an earlier crash); real damage shows up below as a
      // broken parent chain, because nothing valid can point to a line that does not parse. An
      // unreadable first line makes the first parsed line fail as a header.
    }
  }
  const [first, ...rest] = parsed;
  const header = headerSchema.safeParse(first);
  if (!header.success) {
    const problem = header.error.issues
      .map((issue) => `header ${issue.path.join('.') || '(line)'}: ${issue.message}`)
      .join('; ');
    return { problem };
  }
  const seen = new Set<string>();
  for (const [index, raw] of rest.entries()) {
    const entry = entrySchema.safeParse(raw);
    if (!entry.success) return { problem: `entry ${index + 1} has no valid id/parentId` };
    const { id, parentId } = entry.data;
    if (parentId !== null && !seen.has(parentId)) {
      return { problem: `entry ${id} points to a missing parent ${parentId}` };
    }
    seen.add(id);
  }
  return {
    check: {
      sessionId: header.data.id,
      entries: rest.length,
      tornLastLine: text.length > 0 && !text.endsWith('\n'),
    },
    entries: parsed as FileEntry[],
  };
}

/**
 * Keeps a byte copy of a damaged file as `quarantine/<name>.<mtime>` next to it, once per damaged
 * state (the name comes from the file's mtime), and never touches the original.
 */
async function quarantine(path: string, bytes: Buffer, mtime: Date): Promise<string> {
  const stamp = mtime.toISOString().replace(/[:.]/g, '-');
  const target = join(dirname(path), 'quarantine', `${basename(path)}.${stamp}`);
  // The quarantine folder is part of the space too: never written through a symlink.
  await assertRealFolders(dirname(path), dirname(target));
  const existing = await lstat(target).catch(() => undefined);
  if (existing?.size !== bytes.length) {
    await mkdir(dirname(target), { recursive: true });
    await replaceFile(target, bytes, { mode: 0o600 });
  }
  return target;
}

/** A symlink, FIFO, device or socket named like a session: listed as damaged, never opened. */
function notRegular(path: string, mtime: Date): SessionFileState {
  const named = sessionIdOfFileName(path);
  return {
    sessionId: named.sessionId,
    createdAt: named.createdAt,
    modifiedAt: mtime.toISOString(),
    damage: new RepaError(
      'session_damaged',
      `Session file ${path} is not a regular file (a symlink, FIFO, device or socket).`,
      {
        fix: 'Remove it from the session folder; Repa reads only regular session files.',
        details: { path, problem: 'not a regular file' },
      },
    ),
  };
}

async function look(path: string): Promise<SessionFileState> {
  let bytes: Buffer;
  let mtime: Date;
  try {
    // Never through a symlink, never waiting on a FIFO: a space's files are untrusted input.
    const handle = await open(path, READ_NO_FOLLOW);
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) return notRegular(path, stats.mtime);
      mtime = stats.mtime;
      bytes = await handle.readFile();
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
  const found = inspect(bytes);
  if ('check' in found) {
    const header = found.entries[0] as { timestamp: string };
    return {
      sessionId: found.check.sessionId,
      createdAt: header.timestamp,
      modifiedAt: mtime.toISOString(),
      check: found.check,
      entries: found.entries,
    };
  }
  // The header's identity when it still reads; else the one Pi put in the file name.
  const newline = bytes.indexOf(10);
  const firstLine = bytes.subarray(0, newline === -1 ? bytes.length : newline).toString('utf8');
  let header: z.infer<typeof headerSchema> | undefined;
  try {
    header = headerSchema.safeParse(JSON.parse(firstLine)).data;
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
    damage: damaged(path, found.problem, copy),
  };
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
    states.delete(path);
    throw unreadable(path, cause);
  }
  const cached = states.get(path);
  if (cached?.key === key) return cached.state;
  const state = look(path);
  states.delete(path);
  states.set(path, { key, state });
  state.catch(() => states.delete(path));
  if (states.size > MAX_CACHED_FILES) {
    const oldest = states.keys().next().value;
    if (oldest !== undefined) states.delete(oldest);
  }
  return state;
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

/** Options of {@link createSessionFile}. @internal */
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
  await assertRealFolders(cwd, sessionDir);
  await mkdir(sessionDir, { recursive: true });
  await assertRealFolders(cwd, sessionDir);
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

/**
 * Checks and opens a Pi session file to continue it; see {@link checkSessionFile}. Only here is a
 * torn last line repaired (spec R92): a newline is appended and synced, so the original bytes stay
 * a prefix. `cwd` (the space root) replaces the working directory recorded in the header for this
 * process only; the file is not rewritten.
 */
export async function openSessionFile(path: string, cwd?: string): Promise<SessionManager> {
  const check = await checkSessionFile(path);
  if (check.tornLastLine) {
    const handle = await open(path, 'a');
    try {
      await handle.appendFile('\n');
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
  return SessionManager.open(path, dirname(path), cwd);
}

/**
 * Throws `space_unsafe` when a folder between `root` and `dir` (inside the space, e.g. `.repa` or
 * `.repa/sessions`) is a symlink or not a folder; missing folders are fine. A `dir` outside `root`
 * (a session folder the embedding application chose) is not checked.
 * @internal
 */
export async function assertRealFolders(root: string, dir: string): Promise<void> {
  const path = relative(root, dir);
  if (path === '' || path.startsWith('..')) return;
  let current = root;
  for (const part of path.split(sep)) {
    current = join(current, part);
    const stats = await lstat(current).catch((error: unknown) => {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw unreadable(current, error);
    });
    if (stats === undefined) return;
    if (!stats.isDirectory()) {
      throw new RepaError(
        'space_unsafe',
        `${current} is not a plain folder (a symlink or a file); Repa keeps no sessions through it.`,
        { details: { path: current } },
      );
    }
  }
}

/** Session files (`*.jsonl`) in a directory, newest name last; none when it does not exist. */
export async function listSessionFiles(sessionDir: string): Promise<string[]> {
  try {
    const names = await readdir(sessionDir);
    return names
      .filter((name) => name.endsWith('.jsonl'))
      .sort()
      .map((name) => join(sessionDir, name));
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return [];
    throw error;
  }
}
