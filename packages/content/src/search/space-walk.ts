import type { Dirent } from 'node:fs';
import { lstat, open, readdir, realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { errnoCode, READ_NO_FOLLOW } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import ignore, { type Ignore } from 'ignore';
import type { ContentStore } from '../content-store.js';
import { isProtectedName, parseSpacePath } from '../space-path.js';
import { toPosix } from '../store-files.js';

/** Per-call bounds of the search tools. */
export interface SearchLimits {
  /** Folder entries visited per call (default 200,000). */
  maxEntries: number;
  /** File bytes `grep` reads per call (default 256 MiB). */
  maxBytes: number;
  /** Larger files are skipped by `grep` (default 8 MiB). */
  maxFileBytes: number;
  /** Matching time per file; a file that takes longer is skipped and named (default 250 ms). */
  matchMillisPerFile: number;
  /** Longest stretch of matching before the event loop is given a turn (default 10 ms). */
  sliceMillis: number;
}

/** The defaults of {@link SearchLimits}. */
export const DEFAULT_SEARCH_LIMITS: SearchLimits = {
  maxEntries: 200_000,
  maxBytes: 256 * 1024 * 1024,
  maxFileBytes: 8 * 1024 * 1024,
  matchMillisPerFile: 250,
  sliceMillis: 10,
};

/** Folders skipped unless ignored paths are included (besides `.gitignore`d ones). */
const NOISE = new Set(['node_modules', '.git']);

/** The largest `.gitignore` read. */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** A folder or file where a walk starts. */
export interface WalkStart {
  /** Path relative to the space root (`''` for the root); absolute for an outside material. */
  target: string;
  /** Absolute path on disk. */
  absolutePath: string;
  /** True for a granted outside material (always a single file). */
  outside: boolean;
  /** Whether it is a folder. */
  folder: boolean;
  /** The identity the address gave, if any. */
  identity?: string;
}

/** One file or folder a walk met. */
export interface WalkEntry {
  /** Path relative to the space root as walked (`/`-separated). */
  path: string;
  /** Path relative to the space root with symlinks resolved (where its identity is recorded). */
  target: string;
  /** Absolute path on disk, symlinks resolved. */
  absolutePath: string;
  /** Whether it is a folder. */
  folder: boolean;
}

/** What a walk left out, for the notices of a result. */
export interface WalkReport {
  /** Entries visited. */
  entries: number;
  /** Why the walk stopped early, if it did. */
  stopped?: string;
  /** Entries skipped because `.gitignore` or the noise list names them. */
  ignored: number;
  /** Symlinks not followed because they leave the space, point nowhere or into `.repa`. */
  symlinksLeaving: number;
  /** FIFOs, sockets and devices skipped (never opened). */
  special: number;
}

const isRoot = (path: string | undefined) =>
  path === undefined ||
  path.trim() === '' ||
  (/^[./\\]+$/u.test(path.trim()) && !path.includes('..'));

/**
 * Where a search tool's `path` parameter points: the space root when absent or `.`, a folder or
 * file of the space, or an outside material named by its `repa:material/<id>` identity.
 */
export async function resolveWalkStart(
  store: ContentStore,
  path: string | undefined,
): Promise<WalkStart> {
  if (isRoot(path)) return { target: '', absolutePath: store.root, outside: false, folder: true };
  const given = path as string;
  const location = given.startsWith('repa:')
    ? await store.locate(given)
    : await store.space.canonical(parseSpacePath(given));
  let folder: boolean;
  try {
    const stats = await lstat(location.absolutePath);
    if (!stats.isDirectory() && !stats.isFile()) {
      throw new RepaError(
        'invalid_request',
        `${JSON.stringify(given)} is not a regular file or folder.`,
      );
    }
    folder = stats.isDirectory();
  } catch (error) {
    if (RepaError.isInstance(error)) throw error;
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') {
      throw new RepaError('not_found', `There is nothing at ${JSON.stringify(given)}.`, {
        fix: 'Use ls or find to see what the space holds.',
      });
    }
    throw error;
  }
  return { ...location, folder };
}

interface IgnoreRules {
  /** The folder the `.gitignore` sits in, relative to the space root (`''` for the root). */
  base: string;
  rules: Ignore;
}

/**
 * A bounded walk over the space (or one folder of it): `.repa` never entered, symlinks followed
 * only while they stay in the space (each real folder once), FIFOs and devices skipped without
 * opening them, and by default `.gitignore`d paths, `node_modules` and `.git` skipped.
 */
export class SpaceWalk {
  /** What the walk left out so far. */
  readonly report: WalkReport = { entries: 0, ignored: 0, symlinksLeaving: 0, special: 0 };
  private readonly visited = new Set<string>();
  private lastTurn = performance.now();

  constructor(
    private readonly store: ContentStore,
    private readonly options: {
      includeIgnored: boolean;
      limits: SearchLimits;
      signal?: AbortSignal | undefined;
    },
  ) {}

  /** Stops the walk with `reason` (shown in the result). */
  stop(reason: string): void {
    this.report.stopped ??= reason;
  }

  /** Gives the event loop a turn when the current stretch of work has lasted long enough. */
  async breathe(): Promise<void> {
    if (performance.now() - this.lastTurn < this.options.limits.sliceMillis) return;
    await nextTurn();
    this.lastTurn = performance.now();
    if (this.options.signal?.aborted) throw new Error('Operation aborted');
  }

  /** The entries of one folder, sorted by name, with what the scope rules leave out counted. */
  async list(folder: WalkEntry, rules: readonly IgnoreRules[]): Promise<WalkEntry[]> {
    let dirents: Dirent[];
    try {
      dirents = await readdir(folder.absolutePath, { withFileTypes: true });
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return [];
      throw error;
    }
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const entries: WalkEntry[] = [];
    for (const dirent of dirents) {
      if (this.report.stopped !== undefined) break;
      if (++this.report.entries > this.options.limits.maxEntries) {
        this.stop(`${this.options.limits.maxEntries} entries visited`);
        break;
      }
      const { name } = dirent;
      // Contract: Repa's own folder is never listed or searched, in any spelling.
      if (isProtectedName(name)) continue;
      const path = folder.path === '' ? name : `${folder.path}/${name}`;
      let entry: WalkEntry | undefined;
      if (dirent.isSymbolicLink())
        entry = await this.followLink(path, join(folder.absolutePath, name));
      else if (dirent.isDirectory() || dirent.isFile()) {
        entry = {
          path,
          target: folder.target === '' ? name : `${folder.target}/${name}`,
          absolutePath: join(folder.absolutePath, name),
          folder: dirent.isDirectory(),
        };
      } else this.report.special += 1;
      if (entry === undefined) continue;
      if (!this.options.includeIgnored && this.ignored(entry, name, rules)) {
        this.report.ignored += 1;
        continue;
      }
      entries.push(entry);
    }
    return entries;
  }

  private ignored(entry: WalkEntry, name: string, rules: readonly IgnoreRules[]): boolean {
    if (entry.folder && NOISE.has(name)) return true;
    for (const { base, rules: ignoreRules } of rules) {
      const relativePath = base === '' ? entry.path : entry.path.slice(base.length + 1);
      if (ignoreRules.ignores(entry.folder ? `${relativePath}/` : relativePath)) return true;
    }
    return false;
  }

  /** A symlink's entry when its real location stays in the space (not `.repa`), else counted. */
  private async followLink(path: string, absolutePath: string): Promise<WalkEntry | undefined> {
    const root = this.store.root;
    try {
      const real = await realpath(absolutePath);
      const target = toPosix(relative(root, real));
      if (!real.startsWith(root + sep) || target.split('/').some(isProtectedName)) {
        this.report.symlinksLeaving += 1;
        return undefined;
      }
      const stats = await lstat(real);
      if (!stats.isDirectory() && !stats.isFile()) {
        this.report.special += 1;
        return undefined;
      }
      return { path, target, absolutePath: real, folder: stats.isDirectory() };
    } catch {
      this.report.symlinksLeaving += 1;
      return undefined;
    }
  }

  /** The `.gitignore` rules that apply inside `start`: those of its folder and every parent. */
  async rulesAbove(start: WalkEntry): Promise<IgnoreRules[]> {
    if (this.options.includeIgnored) return [];
    const rules: IgnoreRules[] = [];
    const parts = start.path === '' ? [] : start.path.split('/');
    for (let depth = 0; depth <= parts.length; depth++) {
      const base = parts.slice(0, depth).join('/');
      const found = await this.readIgnoreFile(
        base,
        join(this.store.root, ...parts.slice(0, depth)),
      );
      if (found) rules.push(found);
    }
    return rules;
  }

  private async readIgnoreFile(base: string, folder: string): Promise<IgnoreRules | undefined> {
    let handle: Awaited<ReturnType<typeof open>> | undefined;
    try {
      handle = await open(join(folder, '.gitignore'), READ_NO_FOLLOW);
      const stats = await handle.stat();
      if (!stats.isFile() || stats.size > MAX_IGNORE_FILE_BYTES) return undefined;
      const text = (await handle.readFile()).toString('utf8');
      return { base, rules: ignore({ allowRelativePaths: true }).add(text) };
    } catch {
      return undefined;
    } finally {
      await handle?.close().catch(() => undefined);
    }
  }

  /** Every file under `folder` (a folder entry), depth first in name order, within the bounds. */
  async *files(folder: WalkEntry, parentRules?: IgnoreRules[]): AsyncGenerator<WalkEntry> {
    if (this.visited.has(folder.absolutePath)) return;
    this.visited.add(folder.absolutePath);
    let rules: IgnoreRules[];
    if (parentRules === undefined) rules = await this.rulesAbove(folder);
    else {
      // A folder's own `.gitignore` applies below it, after those of its parents.
      const own = this.options.includeIgnored
        ? undefined
        : await this.readIgnoreFile(folder.path, folder.absolutePath);
      rules = own ? [...parentRules, own] : parentRules;
    }
    const entries = await this.list(folder, rules);
    for (const entry of entries) {
      if (this.report.stopped !== undefined) return;
      if (this.options.signal?.aborted) throw new Error('Operation aborted');
      if (entry.folder) yield* this.files(entry, rules);
      else yield entry;
      await this.breathe();
    }
  }
}

/** The walk entry of a folder start. */
export function startEntry(start: WalkStart): WalkEntry {
  return {
    path: start.target,
    target: start.target,
    absolutePath: start.absolutePath,
    folder: start.folder,
  };
}
