import type { Dirent } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rename, rm, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { READ_NO_FOLLOW } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { ensureDir } from '../files/index.js';
import { isGitFolderShape, isProtectedName, protectedNameOf, toPosix } from '../space/index.js';
import type { ContentStore } from '../store/index.js';

/** Folder entries the git walk visits before it stops (each command walks twice). */
const MAX_ENTRIES = 100_000;
/** Folders read at once. */
const READ_AHEAD = 16;
/** The most of a `.git` or `commondir` file read (git's own are one short line). */
const POINTER_BYTES = 4096;

/** One thing that makes git take a folder for a repository: a `.git` entry or a git folder. */
interface GitMark {
  /** What to move out when a command made it, relative to the space root (`/`-separated). */
  paths: string[];
  /** The ctime of the `.git` entry or the git folder's `HEAD`, in ms. */
  ctimeMs: number;
}

/** The git folders of a space and what makes them git folders, as one walk found them. */
export interface GitFolders {
  /** Real paths to bind read-only: every git folder and `.git` file found inside the space. */
  protect: string[];
  /** Each `.git` entry and git folder, by the path and inode of the entry or of its `HEAD`. */
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

/** Whether a folder with these entries is a git folder to git (the one shape rule, design R69). */
function looksLikeGitFolder(entries: ReadonlyMap<string, Dirent>): boolean {
  const kind = (name: string) => {
    const entry = entries.get(name);
    return entry === undefined ? undefined : entry.isDirectory() ? 'folder' : 'file';
  };
  return isGitFolderShape({
    HEAD: kind('HEAD'),
    commondir: kind('commondir'),
    objects: kind('objects'),
    refs: kind('refs'),
  });
}

/** The path a `.git` file (`gitdir: <path>`) or `commondir` file names, or `undefined`. */
async function pointer(
  file: string,
  prefix: string,
  base = dirname(file),
): Promise<string | undefined> {
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
    return named === '' ? undefined : resolve(base, named);
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/**
 * Every git folder and protected entry of the space `root` (spec R74, design R69), by a bounded walk
 * that follows no link and skips `.repa`: each `.git` (folder, file or link), each folder git takes
 * for a repository (`HEAD` with `objects/` and `refs/`, or `commondir`: a bare repository), what
 * `.git` files (`gitdir:`), `.git` links and `commondir` files name inside the space (never read
 * outside it), and each other protected name (`.pi`, `.agents`, instruction files) and where it
 * leads inside the space.
 */
export async function findGitFolders(root: string, maxEntries = MAX_ENTRIES): Promise<GitFolders> {
  const found: GitFolders = { protect: [], marks: new Map(), rootIsGitFolder: false };
  const protect = new Set<string>();
  /** Marks `path` (a `.git` or `HEAD`) as making a repository; `paths` are moved if it is new. */
  const mark = async (path: string, paths: string[]) => {
    try {
      const stats = await lstat(path);
      const key = `${toPosix(relative(root, path))}\0${stats.dev}:${stats.ino}`;
      found.marks.set(key, { paths, ctimeMs: stats.ctimeMs });
    } catch {
      // Gone meanwhile.
    }
  };
  // What a `.git` or `commondir` names, bound when inside the space (the root is found by shape).
  // `base`: where a relative `gitdir:` starts (git's rule: the folder of the `.git` as named).
  const named = async (path: string | undefined, depth = 0, base?: string): Promise<void> => {
    if (path === undefined) return;
    let real: string;
    try {
      real = await realpath(path);
    } catch {
      return;
    }
    if (!inside(root, real) || protect.has(real)) return;
    protect.add(real);
    const stats = await stat(real).catch(() => undefined);
    if (depth < 2 && stats?.isDirectory()) {
      await named(await pointer(join(real, 'commondir'), ''), depth + 1);
    } else if (depth < 2 && stats?.isFile()) {
      await named(await pointer(real, 'gitdir:', base), depth + 1);
    }
  };
  let entries = 0;
  const stack = [root];
  while (stack.length > 0 && found.stopped === undefined) {
    const batch = stack.splice(-READ_AHEAD);
    const listed = await Promise.all(
      // Gone, or not readable: git cannot use it either.
      batch.map((folder) => readdir(folder, { withFileTypes: true }).catch(() => [])),
    );
    for (const [index, dirents] of listed.entries()) {
      const folder = batch[index] as string;
      entries += dirents.length;
      if (entries > maxEntries) {
        found.stopped = `${maxEntries} entries visited`;
        break;
      }
      const byName = new Map(dirents.map((dirent) => [dirent.name, dirent]));
      if (looksLikeGitFolder(byName)) {
        const at = toPosix(relative(root, folder));
        // The root cannot be moved: what makes it a git folder is.
        await mark(join(folder, 'HEAD'), at === '' ? ['HEAD', 'commondir'] : [at]);
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
          await mark(path, [toPosix(relative(root, path))]);
          // A folder, a file naming one (`gitdir:`), or a link to either inside the space.
          await named(path, 0, folder);
        } else if (protectedNameOf(dirent.name) !== undefined) {
          // `.pi`, `.agents`, an instruction file: bound read-only where it really is, moved out when new.
          await mark(path, [toPosix(relative(root, path))]);
          await named(path, 2);
        } else if (dirent.isDirectory()) stack.push(path);
      }
    }
  }
  found.protect = [...protect].sort();
  return found;
}

/** The refusal to run a command in a space whose root is itself a git folder. */
export function rootIsGitFolder(): RepaError {
  return new RepaError(
    'space_unsafe',
    'The space folder is itself a git folder (a bare repository: HEAD with objects and refs), whose config and hooks a command could change; the command was not run.',
    {
      fix: 'Open the repository’s work tree as the space instead, or turn commands off with `repa settings set tools.bash off`.',
    },
  );
}

/**
 * Moves each `.git` entry, git folder and protected entry in `after` that is not in `before` (the
 * root's `HEAD` and `commondir` when the root became one) into `.repa/quarantine/<time>/`, keeping
 * its path (spec R74, design R69): git, run later outside the sandbox, would run the hooks and
 * config of a repository a command made, and Pi would load what a command put in `.pi/`. Where `before` stopped early only marks changed since `since` (ms) count as new.
 * What cannot be moved is removed.
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
    .flatMap(([, mark]) => mark.paths)
    .sort();
  if (fresh.length === 0) return [];
  const { fs, repaDir } = store.space;
  const stamp = `${new Date().toISOString().replace(/[:.]/gu, '-')}-${Math.random().toString(36).slice(2, 6)}`;
  const quarantine = join(repaDir, 'quarantine', stamp);
  const moves: GitMove[] = [];
  for (const path of fresh) {
    if (moves.some((move) => path.startsWith(`${move.path}/`))) continue;
    const from = join(store.root, path);
    if (
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
  return moves;
}
