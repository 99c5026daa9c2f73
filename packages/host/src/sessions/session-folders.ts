import { lstatSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { errnoCode, ioError } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';

/** Pi names session files `<timestamp with - for : and .>_<session id>.jsonl`. */
const PI_FILE_NAME = /^(\d{4}-\d{2}-\d{2}T\d{2})-(\d{2})-(\d{2})-(\d{3}Z)_(.+)\.jsonl$/;

/**
 * The session id (and creation time) Pi put in a session file's name.
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

/**
 * Throws `space_unsafe` when a folder between `root` and `dir` (inside the space, e.g. `.repa` or
 * `.repa/sessions`) is a symlink or not a folder; missing folders are fine. A `dir` outside `root`
 * (a session folder the embedding application chose) is not checked.
 * @internal
 */
export function assertRealFolders(root: string, dir: string): void {
  const path = relative(root, dir);
  if (path === '' || path.startsWith('..')) return;
  let current = root;
  for (const part of path.split(sep)) {
    current = join(current, part);
    let stats: ReturnType<typeof lstatSync>;
    try {
      // Synchronous: a caller about to hand the path to Pi (which reads it synchronously) checks
      // it with nothing in between.
      stats = lstatSync(current);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return;
      throw ioError(error, `Checking ${current}`);
    }
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
