import type { Dirent } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { READ_NO_FOLLOW } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import type { ContentStore } from '../content-store.js';
import { isProtectedName } from '../space-path.js';
import { ensureDir, toPosix } from '../store-files.js';

/** Folder entries the git walk visits before it stops (each command walks twice). */
const MAX_ENTRIES = 100_000;
/** Folders read between two turns of the event loop. */
const FOLDERS_PER_TURN = 64;
/** The most of a `.git` or `commondir` file read (git's own are one short line). */
const POINTER_BYTES = 4096;

/** One thing that makes git take a folder for a repository: a `.git` entry or a git folder's `HEAD`. */
interface GitMark {
  /** Path relative to the space root (`/`-separated). */
  path: string;
  /** `'entry'`: a `.git` of any kind; `'head'`: the `HEAD` (and `commondir`) of a git folder. */
  kind: 'entry' | 'head';
  /** The folder holding `HEAD`, for `kind: 'head'` (`''` for the root). */
  folder: string;
  ctimeMs: number;
}

/** The git folders of a space and what makes them git folders, as one walk found them. */
export interface GitFolders {
  /** Real paths to bind read-only: every git folder and `.git` file found inside the space. */
  protect: string[];
  /** Each `.git` entry and git folder `HEAD`, by path and inode. */
  marks: Map<string, GitMark>;
  /** Whether the space root is itself a git folder (it cannot be bound read-only). */
  rootIsGitFolder: boolean;
  /** Why the walk stopped early, if it did (what lies beyond was not looked at). */
  stopped?: string;
}

/** What was done with one git entry a command made. */
export interface GitMove {
  /** The path the command made, relative to the space root. */
  path: string;
  /** Where it is now, relative to the space root (under `.repa/quarantine/`); absent if removed. */
  movedTo?: string;
  /** Why it could be neither moved nor removed, if so. */
  failed?: string;
}

function inside(folder: string, path: string): boolean {
  const rest = relative(folder, path);
  return rest !== '' && rest !== '..' && !rest.startsWith(`..${sep}`) && !isAbsolute(rest);
}

/** Whether a folder with these entries is a git folder to git: `HEAD` with objects and refs, or `commondir`. */
function looksLikeGitFolder(entries: ReadonlyMap<string, Dirent>): boolean {
  const head = entries.get('HEAD');
  if (head === undefined || head.isDirectory()) return false;
  if (entries.get('commondir')?.isFile()) return true;
  return (
    entries.get('objects')?.isDirectory() === true && entries.get('refs')?.isDirectory() === true
  );
}

/** The path a `.git` file (`gitdir: <path>`) or `commondir` file names, or `undefined`. */
async function pointer(file: string, prefix: string): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(file, READ_NO_FOLLOW);
    if (!(await handle.stat()).isFile()) return undefined;
    const { buffer, bytesRead } = await handle.read(
      Buffer.alloc(POINTER_BYTES),
      0,
      POINTER_BYTES,
      0,
    );
    const line = buffer.toString('utf8', 0, bytesRead).split(/\r?\n/u)[0] ?? '';
    if (!line.startsWith(prefix)) return undefined;
    const named = line.slice(prefix.length).trim();
    return named === '' ? undefined : resolve(dirname(file), named);
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Every git folder of the space `root` (spec R74), by a bounded walk that follows no link and skips
 * `.repa`: each `.git` (folder, file or link), each folder git takes for a
 * repository (`HEAD` with `objects/` and `refs/`, or `commondir`: a bare repository), and what
 * `.git` files (`gitdir:`), `.git` links and `commondir` files name inside the space (never read
 * outside it).
 */
export async function findGitFolders(root: string, maxEntries = MAX_ENTRIES): Promise<GitFolders> {
  const found: GitFolders = { protect: [], marks: new Map(), rootIsGitFolder: false };
  const protect = new Set<string>();
  const mark = async (path: string, kind: GitMark['kind'], folder = '') => {
    try {
      const stats = await lstat(path);
      const rel = toPosix(relative(root, path));
      found.marks.set(`${rel}\0${stats.dev}:${stats.ino}`, {
        path: rel,
        kind,
        folder,
        ctimeMs: stats.ctimeMs,
      });
    } catch {
      // Gone meanwhile.
    }
  };
  // What a `.git` or `commondir` names, bound when inside the space (the root is found by shape).
  const named = async (path: string | undefined, depth = 0): Promise<string | undefined> => {
    if (path === undefined) return undefined;
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      return undefined;
    }
    if (!inside(root, real)) return undefined;
    if (protect.has(real)) return real;
    protect.add(real);
    const stats = await stat(real).catch(() => undefined);
    if (depth < 2 && stats?.isDirectory()) {
      await named(await pointer(join(real, 'commondir'), ''), depth + 1);
    } else if (depth < 2 && stats?.isFile()) {
      await named(await pointer(real, 'gitdir:'), depth + 1);
    }
    return real;
  };
  let entries = 0;
  let folders = 0;
  const stack = [root];
  while (stack.length > 0) {
    const folder = stack.pop() as string;
    let dirents: Dirent[];
    try {
      dirents = await readdir(folder, { withFileTypes: true });
    } catch {
      continue; // Gone, or not readable: git cannot use it either.
    }
    entries += dirents.length;
    if (entries > maxEntries) {
      found.stopped = `${maxEntries} entries visited`;
      break;
    }
    if (++folders % FOLDERS_PER_TURN === 0) await nextTurn();
    const byName = new Map(dirents.map((dirent) => [dirent.name, dirent]));
    if (looksLikeGitFolder(byName)) {
      await mark(join(folder, 'HEAD'), 'head', toPosix(relative(root, folder)));
      if (folder === root) found.rootIsGitFolder = true;
      else {
        await named(folder);
        continue; // Bound whole: nothing below is walked.
      }
    }
    for (const dirent of dirents) {
      const path = join(folder, dirent.name);
      if (folder === root && isProtectedName(dirent.name)) continue;
      if (dirent.name === '.git') {
        await mark(path, 'entry');
        // A folder, a file naming one (`gitdir:`), or a link to either inside the space.
        await named(path);
      } else if (dirent.isDirectory()) stack.push(path);
    }
  }
  found.protect = [...protect].sort();
  return found;
}

/** The refusal to run a command in a space whose root is itself a git folder. */
export function rootIsGitFolder(): RepaError {
  return new RepaError(
    'space_unsafe',
    'The space folder is itself a git folder (a bare repository, or named by its .git file), which a command could change; the command was not run.',
    {
      fix: 'Open the repository’s work tree as the space instead, or turn commands off with `repa settings set tools.bash off`.',
    },
  );
}

/**
 * Moves each `.git` entry and git folder `HEAD` (with its `commondir`) in `after` that is not in
 * `before` into `.repa/quarantine/<time>/`, keeping its path (spec R74): git, run later outside the
 * sandbox, would run the hooks and config of a repository a command made. Where `before` stopped
 * early only marks changed since `since` (ms) count as new. What cannot be moved is removed.
 */
export async function quarantineNewGit(
  store: ContentStore,
  before: GitFolders,
  after: GitFolders,
  since: number,
): Promise<GitMove[]> {
  const fresh = [...after.marks.entries()]
    .filter(
      ([key, mark]) =>
        !before.marks.has(key) && (before.stopped === undefined || mark.ctimeMs >= since),
    )
    .map(([, mark]) => mark)
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  if (fresh.length === 0) return [];
  const { fs, repaDir } = store.space;
  const stamp = `${new Date().toISOString().replace(/[:.]/gu, '-')}-${Math.random().toString(36).slice(2, 6)}`;
  const quarantine = join(repaDir, 'quarantine', stamp);
  const moves: GitMove[] = [];
  for (const mark of fresh) {
    const paths = [mark.path];
    if (mark.kind === 'head')
      paths.push(mark.folder === '' ? 'commondir' : `${mark.folder}/commondir`);
    for (const path of paths) {
      if (moves.some((move) => path.startsWith(`${move.path}/`))) continue;
      const from = join(store.root, path);
      if (
        path !== mark.path &&
        !(await lstat(from).then(
          () => true,
          () => false,
        ))
      )
        continue;
      const move: GitMove = { path };
      try {
        await ensureDir(fs, repaDir);
        await ensureDir(fs, dirname(quarantine));
        await ensureDir(fs, quarantine);
        await mkdir(dirname(join(quarantine, path)), { recursive: true });
        await rename(from, join(quarantine, path));
        move.movedTo = toPosix(relative(store.root, join(quarantine, path)));
      } catch (moveError) {
        try {
          await rm(from, { recursive: true, force: true });
        } catch (error) {
          move.failed = `${String(moveError)}; ${String(error)}`;
        }
      }
      moves.push(move);
    }
  }
  return moves;
}
