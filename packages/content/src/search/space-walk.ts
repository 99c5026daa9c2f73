import {
  closeSync,
  type Dirent,
  fstatSync,
  lstatSync,
  opendirSync,
  openSync,
  readSync,
  realpathSync,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { errnoCode, READ_NO_FOLLOW } from '@repa/durable-fs';
import { isProtectedName, listedName, toPosix } from '../space/index.js';
import {
  compileIgnoreRules,
  type IgnoreRules,
  ignoredBy,
  MAX_IGNORE_FILE_BYTES,
} from './ignore-rules.js';
import { RawNames } from './raw-names.js';

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
  /** Wall-clock time of one call's walk and matching; past it the call stops (default 30 s). */
  maxMillis: number;
}

/** The defaults of {@link SearchLimits}. */
export const DEFAULT_SEARCH_LIMITS: SearchLimits = {
  maxEntries: 200_000,
  maxBytes: 256 * 1024 * 1024,
  maxFileBytes: 8 * 1024 * 1024,
  matchMillisPerFile: 250,
  maxMillis: 30_000,
};

/** Folders skipped unless ignored paths are included (besides `.gitignore`d ones). */
const NOISE = new Set(['node_modules', '.git']);

/** Folders nested deeper than this below the folder searched are not entered (counted as too deep). */
export const MAX_DEPTH = 100;
/** How many folder entries one read of a folder takes from the system at a time. */
const FOLDER_BATCH = 128;
/** How many `.gitignore` files not applied a report names (the rest are counted). */
const NAMED_IGNORE_FILES = 10;

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
  /** Why no path names it (see `listedName`): `path` then escaped, `absolutePath` empty; never opened. */
  problem?: string;
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
  /**
   * Folders not entered because they lie more than {@link MAX_DEPTH} levels below the folder
   * searched or their path is longer than the system takes (`ENAMETOOLONG`).
   */
  tooDeep: number;
  /** The first folder counted in `tooDeep` (space-relative, at most 120 characters). */
  firstTooDeep?: string;
  /** Files and folders not searched because no path names them, and the first (as `firstTooDeep`). */
  unnamed: number;
  firstUnnamed?: string;
  /** `.gitignore` files not applied, space-relative, with why (too large, too many rules, not a file). */
  ignoreFilesNotApplied: { path: string; reason: string }[];
  /** How many `.gitignore` files were not applied in all (only the first few are named). */
  ignoreFilesNotAppliedCount: number;
}

/** A folder that could not be listed for a reason other than being gone, denied or too deep. */
export class WalkFailure extends Error {
  constructor(
    readonly path: string,
    readonly errno: string | undefined,
    cause: unknown,
  ) {
    super(`Listing the folder ${JSON.stringify(path || '.')} failed (${errno ?? String(cause)}).`, {
      cause,
    });
  }
}

/** How a walk is bounded and told to stop. */
export interface WalkOptions {
  /** Real folders inside the space never entered or listed (Pi's agent dir, Repa's app dir). */
  hidden: readonly string[];
  includeIgnored: boolean;
  limits: SearchLimits;
  /** Why a walk stops at each bound, as the result names it. */
  reasons: { entries: string; time: string; ignoreTooLarge: string };
  /** True once the caller gave up (checked at every entry). */
  aborted: () => boolean;
}

/**
 * A bounded synchronous walk over the space (or one folder of it), run off the event loop (in the
 * search worker): `.repa` never entered, symlinks followed only while they stay in the space (each
 * real folder once), FIFOs and devices skipped without opening them, and by default `.gitignore`d
 * paths, `node_modules` and `.git` skipped.
 */
export class SpaceWalk {
  /** What the walk left out so far. */
  readonly report: WalkReport = {
    entries: 0,
    ignored: 0,
    symlinksLeaving: 0,
    special: 0,
    tooDeep: 0,
    unnamed: 0,
    ignoreFilesNotApplied: [],
    ignoreFilesNotAppliedCount: 0,
  };
  private readonly visited = new Set<string>();
  private readonly started = performance.now();

  constructor(
    private readonly root: string,
    private readonly options: WalkOptions,
  ) {}

  /** Stops the walk with `reason` (shown in the result). */
  stop(reason: string): void {
    this.report.stopped ??= reason;
  }

  /** Stops the walk once the call has used its time; throws once the caller gave up. */
  check(): void {
    if (this.options.aborted()) throw new Error('Operation aborted');
    if (performance.now() - this.started >= this.options.limits.maxMillis) {
      this.stop(this.options.reasons.time);
    }
  }

  /** Counts a folder not entered as too deep, naming the first one. */
  private tooDeep(path: string): void {
    this.report.tooDeep += 1;
    this.report.firstTooDeep ??= path.length > 120 ? `${path.slice(0, 119)}…` : path;
  }

  /**
   * At most `max` entries of one folder, read in batches (a folder of a million entries is never
   * read whole), or `undefined` when it cannot be read: gone or not allowed (skipped), or too deep
   * to open (counted). Any other failure is a {@link WalkFailure} naming the folder.
   */
  private readFolder(folder: WalkEntry, max: number): Dirent[] | undefined {
    const dirents: Dirent[] = [];
    try {
      const dir = opendirSync(folder.absolutePath, { bufferSize: FOLDER_BATCH });
      try {
        for (let dirent = dir.readSync(); dirent !== null; dirent = dir.readSync()) {
          dirents.push(dirent);
          if (dirents.length >= max) break;
        }
      } finally {
        dir.closeSync();
      }
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EACCES') return undefined;
      if (code === 'ENAMETOOLONG' || code === 'ELOOP') {
        this.tooDeep(folder.path);
        return undefined;
      }
      throw new WalkFailure(folder.path, code, error);
    }
    return dirents;
  }

  /** The entries of one folder, sorted by name, with what the scope rules leave out counted. */
  list(folder: WalkEntry, rules: readonly IgnoreRules[]): WalkEntry[] {
    // One entry past the bound is read, so the walk knows to stop.
    const room = this.options.limits.maxEntries - this.report.entries + 1;
    const dirents = this.readFolder(folder, Math.max(1, room));
    if (dirents === undefined) return [];
    dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const raw = new RawNames(folder.absolutePath, dirents.length, FOLDER_BATCH);
    const entries: WalkEntry[] = [];
    for (const dirent of dirents) {
      this.check();
      if (this.report.stopped !== undefined) break;
      if (++this.report.entries > this.options.limits.maxEntries) {
        this.stop(this.options.reasons.entries);
        break;
      }
      const { name, problem } = listedName(raw.of(dirent.name));
      // Contract: Repa's own folder is never listed or searched, in any spelling.
      if (isProtectedName(name)) continue;
      const path = folder.path === '' ? name : `${folder.path}/${name}`;
      let entry: WalkEntry | undefined;
      const kept = dirent.isDirectory() || dirent.isFile();
      if (problem !== undefined && (kept || dirent.isSymbolicLink())) {
        // Listed with why, never opened or followed (a link so named is listed as a file).
        entry = { path, target: path, absolutePath: '', folder: dirent.isDirectory() };
        entry.problem = problem.message;
      } else if (dirent.isSymbolicLink()) {
        entry = this.followLink(path, join(folder.absolutePath, name));
      } else if (kept) {
        entry = {
          path,
          target: folder.target === '' ? name : `${folder.target}/${name}`,
          absolutePath: childPath(folder.absolutePath, name),
          folder: dirent.isDirectory(),
        };
      } else this.report.special += 1;
      if (entry === undefined || this.isHidden(entry.absolutePath)) continue;
      if (!this.options.includeIgnored && this.ignored(entry, name, rules)) {
        this.report.ignored += 1;
        continue;
      }
      entries.push(entry);
    }
    return entries;
  }

  private isHidden(absolutePath: string): boolean {
    return this.options.hidden.some(
      (folder) => absolutePath === folder || absolutePath.startsWith(folder + sep),
    );
  }

  private ignored(entry: WalkEntry, name: string, rules: readonly IgnoreRules[]): boolean {
    if (entry.folder && NOISE.has(name)) return true;
    return ignoredBy(rules, entry.path, entry.folder);
  }

  /** A symlink's entry when its real location stays in the space (not `.repa`), else counted. */
  private followLink(path: string, absolutePath: string): WalkEntry | undefined {
    const root = this.root;
    try {
      const real = realpathSync(absolutePath);
      const target = toPosix(relative(root, real));
      if (!real.startsWith(root + sep) || target.split('/').some(isProtectedName)) {
        this.report.symlinksLeaving += 1;
        return undefined;
      }
      const stats = lstatSync(real);
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
  rulesAbove(start: WalkEntry): IgnoreRules[] {
    if (this.options.includeIgnored) return [];
    const rules: IgnoreRules[] = [];
    const parts = start.path === '' ? [] : start.path.split('/');
    for (let depth = 0; depth <= parts.length; depth++) {
      const base = parts.slice(0, depth).join('/');
      const found = this.readIgnoreFile(base, join(this.root, ...parts.slice(0, depth)));
      if (found) rules.push(found);
    }
    return rules;
  }

  /** Records a `.gitignore` that is not applied, and why. */
  private notApplied(base: string, reason: string): undefined {
    this.report.ignoreFilesNotAppliedCount += 1;
    if (this.report.ignoreFilesNotApplied.length < NAMED_IGNORE_FILES) {
      const path = base === '' ? '.gitignore' : `${base}/.gitignore`;
      this.report.ignoreFilesNotApplied.push({ path, reason });
    }
    return undefined;
  }

  /**
   * The rules of the `.gitignore` in `folder`, or `undefined` when there is none or it is not
   * applied (named in the report): opened without waiting and without following a symlink, read
   * only when it is a regular file of at most {@link MAX_IGNORE_FILE_BYTES}.
   */
  private readIgnoreFile(base: string, folder: string): IgnoreRules | undefined {
    let fd: number | undefined;
    let text: string;
    try {
      fd = openSync(join(folder, '.gitignore'), READ_NO_FOLLOW);
      const stats = fstatSync(fd);
      if (stats.isDirectory()) return undefined;
      if (!stats.isFile()) return this.notApplied(base, 'not a regular file');
      const tooLarge = this.options.reasons.ignoreTooLarge;
      if (stats.size > MAX_IGNORE_FILE_BYTES) return this.notApplied(base, tooLarge);
      // One byte more than the bound: a file that grew meanwhile is not applied either.
      const buffer = Buffer.alloc(MAX_IGNORE_FILE_BYTES + 1);
      const bytesRead = readSync(fd, buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_IGNORE_FILE_BYTES) return this.notApplied(base, tooLarge);
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') return undefined;
      if (code === 'ELOOP') return this.notApplied(base, 'a symlink');
      return this.notApplied(base, code === 'ENXIO' ? 'not a regular file' : 'unreadable');
    } finally {
      if (fd !== undefined) closeQuietly(fd);
    }
    const rules = compileIgnoreRules(text, base);
    return 'problem' in rules ? this.notApplied(base, rules.problem) : rules;
  }

  /** Every file under `folder` (a folder entry), depth first in name order, within the bounds. */
  *files(folder: WalkEntry, parentRules?: IgnoreRules[], depth = 0): Generator<WalkEntry> {
    if (this.visited.has(folder.absolutePath)) return;
    if (depth > MAX_DEPTH) {
      this.tooDeep(folder.path);
      return;
    }
    this.visited.add(folder.absolutePath);
    let rules: IgnoreRules[];
    if (parentRules === undefined) rules = this.rulesAbove(folder);
    else {
      // A folder's own `.gitignore` applies below it, after those of its parents.
      const own = this.options.includeIgnored
        ? undefined
        : this.readIgnoreFile(folder.path, folder.absolutePath);
      rules = own ? [...parentRules, own] : parentRules;
    }
    const entries = this.list(folder, rules);
    for (const entry of entries) {
      if (this.report.stopped !== undefined) return;
      if (entry.problem !== undefined) {
        this.report.unnamed += 1;
        this.report.firstUnnamed ??=
          entry.path.length > 120 ? `${entry.path.slice(0, 119)}…` : entry.path;
      } else if (entry.folder) yield* this.files(entry, rules, depth + 1);
      else yield entry;
    }
  }
}

/**
 * The absolute path of entry `name` of the folder at `folder` (absolute and normalised already,
 * `name` a single part from the folder's listing): what `join` returns, without its normalising
 * pass over the whole path, which a walk of 100,000 files spent ~15% of its time in.
 */
function childPath(folder: string, name: string): string {
  return folder.endsWith(sep) ? folder + name : folder + sep + name;
}

/** Closes a file descriptor, ignoring a failure (nothing was written through it). */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Only read from: nothing is lost.
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
