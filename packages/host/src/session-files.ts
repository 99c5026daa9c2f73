import { randomUUID } from 'node:crypto';
import {
  appendFileSync,
  closeSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { CURRENT_SESSION_VERSION, SessionManager } from '@earendil-works/pi-coding-agent';
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

/** What {@link checkSessionFile} found and did. */
export interface SessionFileCheck {
  /** The session id from the header. */
  sessionId: string;
  /** Entries with a valid id and parent. */
  entries: number;
  /** True when a torn last line got a newline appended (the original bytes stay a prefix). */
  repairedTornLine: boolean;
}

function damaged(path: string, problem: string): RepaError {
  return new RepaError('session_damaged', `Session file ${path} is damaged: ${problem}.`, {
    details: { path, problem },
  });
}

/**
 * Checks a Pi session file before Pi opens it. A torn last line gets a newline appended; a damaged
 * header or a broken parent chain throws `session_damaged` and leaves the file untouched.
 *
 * Contract: Pi 0.87.1 silently migrates (and rewrites) a file whose header lacks a current version,
 * and skips malformed lines; this check runs first so neither can hide damage.
 */
export function checkSessionFile(path: string): SessionFileCheck {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (cause) {
    throw new RepaError('not_found', `Session file ${path} cannot be read.`, { cause });
  }
  const text = bytes.toString('utf8');
  const lines = text.split('\n');
  const torn = text.length > 0 && !text.endsWith('\n');
  const parsed: unknown[] = [];
  for (const line of lines) {
    if (line.trim() === '') continue;
    try {
      parsed.push(JSON.parse(line));
    } catch {
      // Skipped like Pi does (a torn line from an earlier crash); real damage shows up below as a
      // broken parent chain, because nothing valid can point to a line that does not parse.
    }
  }
  const [first, ...rest] = parsed;
  const header = headerSchema.safeParse(first);
  if (!header.success) {
    const problem = header.error.issues
      .map((issue) => `header ${issue.path.join('.') || '(line)'}: ${issue.message}`)
      .join('; ');
    throw damaged(path, problem);
  }
  const seen = new Set<string>();
  let entries = 0;
  for (const [index, raw] of rest.entries()) {
    const entry = entrySchema.safeParse(raw);
    if (!entry.success) throw damaged(path, `entry ${index + 1} has no valid id/parentId`);
    const { id, parentId } = entry.data;
    if (parentId !== null && !seen.has(parentId)) {
      throw damaged(path, `entry ${id} points to a missing parent ${parentId}`);
    }
    seen.add(id);
    entries += 1;
  }
  if (torn) appendFileSync(path, '\n');
  return { sessionId: header.data.id, entries, repairedTornLine: torn };
}

/**
 * Creates a new Pi session file in `sessionDir` and writes its header at once (temp + fsync +
 * rename), so the new session's identity is recoverable before its first message (spec R48: Pi
 * 0.87.1 writes nothing until the first assistant reply).
 */
export async function createSessionFile(cwd: string, sessionDir: string): Promise<string> {
  await mkdir(sessionDir, { recursive: true });
  const manager = SessionManager.create(cwd, sessionDir);
  const file = manager.getSessionFile();
  const header = manager.getHeader();
  if (!file || !header) throw new RepaError('internal', 'Pi did not assign a session file.');
  const temp = join(dirname(file), `.${randomUUID()}.tmp`);
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(header)}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, file);
  const dirFd = openSync(dirname(file), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
  return file;
}

/**
 * Checks and opens a Pi session file; see {@link checkSessionFile}. `cwd` (the space root) replaces
 * the working directory recorded in the header for this process only; the file is not rewritten.
 */
export function openSessionFile(path: string, cwd?: string): SessionManager {
  checkSessionFile(path);
  return SessionManager.open(path, dirname(path), cwd);
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
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
