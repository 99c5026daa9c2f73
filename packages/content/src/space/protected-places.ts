import type { BigIntStats } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { errnoCode, type FsLayer, ioError } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { INSTRUCTION_FILES, PROTECTED_NAMES, type ProtectedName } from './protected-paths.js';
import { protectedNameOf, toPosix } from './space-path.js';

/** What makes git take a folder for a repository, by the kinds of four of its entries. */
export interface GitFolderEntries {
  HEAD: 'file' | 'folder' | undefined;
  commondir: 'file' | 'folder' | undefined;
  objects: 'file' | 'folder' | undefined;
  refs: 'file' | 'folder' | undefined;
}

/** Whether git takes a folder with these entries for a git folder: `HEAD` with `objects/` and `refs/`, or `commondir`. */
export function isGitFolderShape(entries: GitFolderEntries): boolean {
  if (entries.HEAD === undefined || entries.HEAD === 'folder') return false;
  if (entries.commondir === 'file') return true;
  return entries.objects === 'folder' && entries.refs === 'folder';
}

/** The root names Pi and git read by their exact spelling, whose links are followed to their place. */
const ROOT_NAMES = [
  ...PROTECTED_NAMES.filter((entry) => entry.access === 'read-only').map((entry) => entry.name),
  ...INSTRUCTION_FILES,
];

const insideOf = (folder: string, path: string) => path === folder || path.startsWith(folder + sep);

const kindOf = (stats: BigIntStats | undefined) =>
  stats === undefined ? undefined : stats.isDirectory() ? 'folder' : 'file';

/** Folders of this process's machine hidden from every space (see {@link hideFromSpaces}). */
const machineFolders = new Set<string>();
let machineGeneration = 0;

/**
 * Hides `folder` (Pi's agent dir, Repa's app dir) from every space this process opens: when a
 * space holds it, no read, listing or save of any store reaches inside it (design R69).
 */
export function hideFromSpaces(folder: string): void {
  const absolute = resolve(folder);
  if (machineFolders.has(absolute)) return;
  machineFolders.add(absolute);
  machineGeneration += 1;
}

/** A protected entry's real place in the space, reached through a link at the root. */
interface LinkedPlace {
  /** Where the link leads, relative to the root. */
  target: string;
  entry: ProtectedName;
  /** The link's own name at the root. */
  link: string;
}

/**
 * The protected places of one space (design R69): what no save may create, change, move, delete or
 * rewind into (a protected name at any depth of the path or of where it leads, a folder git takes
 * for a repository, where a protected link at the root leads), and the machine's folders no read or
 * save reaches even inside the space (Pi's agent dir, Repa's app dir).
 */
export class ProtectedPlaces {
  private linked: { key: string; places: LinkedPlace[] } | undefined;
  private hiddenReal: { generation: number; folders: string[] } | undefined;

  constructor(
    private readonly root: string,
    private readonly fs: FsLayer,
    /** This store's own folders hidden from the space (its app dir), besides the process's. */
    private readonly hidden: readonly string[],
  ) {}

  /** Throws `protected_path` when `absolutePath` lies in Pi's agent dir or Repa's app dir. */
  async refuseHidden(absolutePath: string, shown: string): Promise<void> {
    for (const folder of await this.hiddenInside()) {
      if (!insideOf(folder, absolutePath)) continue;
      throw new RepaError(
        'protected_path',
        `${JSON.stringify(shown)} is inside ${toPosix(relative(this.root, folder))}, a folder of Pi's or Repa's own configuration (credentials, settings, records); no tool reads or changes it.`,
        {
          fix: 'Open a space that does not hold Pi’s agent folder or Repa’s app folder (repa --space DIR), and keep your notes there.',
        },
      );
    }
  }

  /**
   * Throws `protected_path` when a save may not touch `target` (the real path relative to the root)
   * given as `given`: a protected name in either, a git folder above it, or the place a protected
   * link at the root leads to.
   */
  async refuseWrite(given: string, target: string): Promise<void> {
    for (const path of given === target ? [target] : [given, target]) {
      for (const part of path.split('/')) {
        const entry = protectedNameOf(part);
        if (entry !== undefined) throw refusal(given, part, entry);
      }
    }
    for (const place of await this.linkedPlaces()) {
      if (target === place.target || target.startsWith(`${place.target}/`)) {
        throw refusal(given, `${place.link} (a link to ${place.target})`, place.entry);
      }
    }
    const git = await this.gitFolderAbove(target);
    if (git !== undefined) {
      throw refusal(given, git === '' ? 'the space folder itself' : git, {
        name: '.git',
        access: 'read-only',
        why: `${git === '' ? 'The space folder' : JSON.stringify(git)} is a git folder (HEAD with objects and refs): git runs what its config and hooks name.`,
      });
    }
  }

  /** The real folders inside the space that no read, listing or save reaches. */
  async hiddenInside(): Promise<string[]> {
    if (this.hidden.length === 0 && machineFolders.size === 0) return [];
    if (this.hiddenReal?.generation === machineGeneration) return this.hiddenReal.folders;
    const generation = machineGeneration;
    const real: string[] = [];
    let settled = true;
    for (const folder of [...this.hidden, ...machineFolders]) {
      try {
        real.push(await this.fs.realpath(folder));
      } catch {
        // Not made yet: compared as configured, and resolved again next time.
        real.push(resolve(folder));
        settled = false;
      }
    }
    const inside = real.filter((folder) => insideOf(this.root, folder));
    if (settled) this.hiddenReal = { generation, folders: inside };
    return inside;
  }

  /** Where the root's protected links lead inside the space; kept while the root folder is unchanged. */
  private async linkedPlaces(): Promise<LinkedPlace[]> {
    const rootStats = await this.fs.lstat(this.root).catch((error: unknown) => {
      throw ioError(error, 'Checking the space folder');
    });
    const key = `${rootStats.dev}:${rootStats.ino}:${rootStats.mtimeNs}:${rootStats.ctimeNs}`;
    if (this.linked?.key === key) return this.linked.places;
    const places: LinkedPlace[] = [];
    for (const name of ROOT_NAMES) {
      const path = join(this.root, name);
      const stats = await this.lstatOrUndefined(path);
      if (!stats?.isSymbolicLink()) continue;
      const real = await this.fs.realpath(path).catch(() => undefined);
      if (real === undefined || !insideOf(this.root, real) || real === this.root) continue;
      const entry = protectedNameOf(name);
      if (entry) places.push({ target: toPosix(relative(this.root, real)), entry, link: name });
    }
    this.linked = { key, places };
    return places;
  }

  /** The nearest folder at or above `target`'s folder that git takes for a repository, if any. */
  private async gitFolderAbove(target: string): Promise<string | undefined> {
    const parts = target.split('/');
    for (let depth = parts.length - 1; depth >= 0; depth--) {
      const folder = join(this.root, ...parts.slice(0, depth));
      const head = await this.lstatOrUndefined(join(folder, 'HEAD'));
      if (head === undefined) continue;
      const [commondir, objects, refs] = await Promise.all(
        ['commondir', 'objects', 'refs'].map((name) => this.lstatOrUndefined(join(folder, name))),
      );
      const shape = {
        HEAD: kindOf(head),
        commondir: kindOf(commondir),
        objects: kindOf(objects),
        refs: kindOf(refs),
      } as const;
      if (isGitFolderShape(shape)) return parts.slice(0, depth).join('/');
    }
    return undefined;
  }

  private async lstatOrUndefined(path: string): Promise<BigIntStats | undefined> {
    try {
      return await this.fs.lstat(path);
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw ioError(error, `Checking ${toPosix(relative(this.root, path))}`);
    }
  }
}

function refusal(given: string, part: string, entry: ProtectedName): RepaError {
  return new RepaError(
    'protected_path',
    `${JSON.stringify(given)} is protected (${part}): ${entry.why} No tool creates, changes, moves, deletes or rewinds it.`,
    {
      fix: 'To make this change, make it yourself outside Repa (in your editor or shell), after reading what it does.',
      details: { path: given, protected: entry.name },
    },
  );
}
