import type { BigIntStats } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { errnoCode, type FsLayer, ioError, READ_NO_FOLLOW } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import {
  isSocketOpenError,
  notRegularFile,
  realDirExists,
  statKeyOf,
  versionOfYielding,
} from '../files/index.js';
import { parseIdentity } from './content-address.js';
import type { ContentLocation } from './content-location.js';
import { unnamedFileError } from './listed-name.js';
import { checkOutsidePath, openOutsideFile } from './outside-files.js';
import { grantedMaterialPath } from './outside-grants.js';
import { ProtectedPlaces } from './protected-places.js';
import { fileTooLarge, MAX_READ_BYTES, pathTooLong } from './read-limits.js';
import { isProtectedName, parseSpacePath, REPA_FOLDER, toPosix } from './space-path.js';

/** The object an identity names, as far as an address needs it (the space's identity index). */
interface IdentityLookup {
  identityOf(path: string): string | undefined;
  pathOf(identity: string): string | undefined;
}

/**
 * The addresses of one space: the canonical symlink walk with its inside and protected checks,
 * stable snapshot reads, and where Repa's own records live in `.repa/`.
 */
export class SpaceResolver {
  /** `.repa/` of the space. */
  readonly repaDir: string;
  /** `.repa/intents/`: the intent records of saves. */
  readonly intentsDir: string;
  /**
   * The file system the store works through.
   * @internal
   */
  readonly fs: FsLayer;
  /** What no save may touch, and the machine's folders no read reaches (design R69). */
  readonly places: ProtectedPlaces;

  /** @internal */
  constructor(
    /** The space root, symlinks resolved. */
    readonly root: string,
    /** The root as the caller gave it (an outside grant may name either). */
    private readonly givenRoot: string,
    /** The application directory (spec R15): grants and the document text cache; none: neither. */
    readonly appDirectory: string | undefined,
    fs: FsLayer,
  ) {
    this.fs = fs;
    this.places = new ProtectedPlaces(root, fs, appDirectory === undefined ? [] : [appDirectory]);
    this.repaDir = join(root, REPA_FOLDER);
    this.intentsDir = join(this.repaDir, 'intents');
  }

  /** The intent record of `operationId`. */
  intentPath(operationId: string): string {
    return join(this.intentsDir, `${operationId}.json`);
  }

  /** Whether `.repa/` exists; `space_unsafe` when it is not a real folder. */
  repaDirExists(): Promise<boolean> {
    return realDirExists(this.fs, this.repaDir);
  }

  /** An absolute path inside the space as a `/`-separated path relative to the root. */
  rel(path: string): string {
    // A path built under the root (the common case) needs no `relative()`.
    if (path.startsWith(this.root + sep) && !path.includes(`${sep}..`)) {
      return toPosix(path.slice(this.root.length + 1));
    }
    return toPosix(relative(this.root, path));
  }

  private isInside(path: string): boolean {
    return path === this.root || path.startsWith(this.root + sep);
  }

  /** Where `address` (a checked path or a `repa:` identity known to `identities`) points. */
  async resolve(address: string, identities: IdentityLookup): Promise<ContentLocation> {
    const parsed = parseIdentity(address);
    if (parsed === undefined) {
      const location = await this.canonical(parseSpacePath(address));
      const identity = identities.identityOf(location.target);
      return identity === undefined ? location : { ...location, identity };
    }
    const path = identities.pathOf(parsed.identity);
    if (path !== undefined) {
      return { ...(await this.canonical(parseSpacePath(path))), identity: parsed.identity };
    }
    if (parsed.kind === 'material') {
      const outside = await grantedMaterialPath(
        this.fs,
        this.appDirectory,
        [this.root, this.givenRoot],
        parsed.id,
      );
      if (outside === 'other-spaces') {
        throw new RepaError(
          'material_not_granted',
          `The material ${parsed.identity} is granted to other spaces, not to this one.`,
        );
      }
      if (outside !== undefined) {
        await checkOutsidePath(this.fs, outside, parsed.identity);
        return { target: outside, absolutePath: outside, outside: true, identity: parsed.identity };
      }
    }
    throw new RepaError(
      'not_found',
      `No object has the identity ${parsed.identity} in this space.`,
      {
        fix: 'Check the identity, or address the file by its path relative to the space root.',
      },
    );
  }

  /**
   * `location` (where `address` points) when a save may change it: throws `path_outside_space` for
   * an outside material and `protected_path` for a protected place, by its spelling or where it
   * leads (design R69).
   */
  async refuseUnsaveable(address: string, location: ContentLocation): Promise<ContentLocation> {
    if (location.outside) {
      throw new RepaError(
        'path_outside_space',
        `${address} is an outside material; outside materials are read-only.`,
        { fix: 'Save a copy inside the space instead.' },
      );
    }
    const given = parseIdentity(address) === undefined ? parseSpacePath(address) : location.target;
    await this.places.refuseWrite(given, location.target);
    return location;
  }

  /**
   * Resolves every symlink of a checked relative path and verifies it stays in the space. `seen`,
   * when given, gets the `lstat` of the object itself when the walk reached it (not a symlink).
   */
  async canonical(path: string, seen?: { stats?: BigIntStats }): Promise<ContentLocation> {
    const parts = path.split('/');
    let current = this.root;
    if (seen !== undefined) seen.stats = undefined;
    for (let index = 0; index < parts.length; index++) {
      const next = join(current, parts[index] as string);
      let stats: BigIntStats;
      try {
        stats = await this.fs.lstat(next);
      } catch (error) {
        const code = errnoCode(error);
        if (code === 'ENOENT') {
          current = join(next, ...parts.slice(index + 1));
          break;
        }
        if (code === 'ENOTDIR') {
          throw new RepaError(
            'invalid_request',
            `${JSON.stringify(parts.slice(0, index).join('/'))} is a file, not a folder.`,
            {
              fix: 'Choose a path whose folders are folders.',
            },
          );
        }
        if (code === 'ENAMETOOLONG') throw pathTooLong(path);
        throw ioError(error, `Checking ${path}`);
      }
      if (stats.isSymbolicLink()) {
        let real: string;
        try {
          real = await this.fs.realpath(next);
        } catch (error) {
          throw new RepaError(
            'path_outside_space',
            `${JSON.stringify(path)} goes through a symlink that points nowhere.`,
            {
              cause: error,
            },
          );
        }
        if (!this.isInside(real)) {
          throw new RepaError(
            'path_outside_space',
            `${JSON.stringify(path)} goes through a symlink that leaves the space.`,
          );
        }
        current = real;
      } else {
        current = next;
        if (seen !== undefined && index === parts.length - 1) seen.stats = stats;
      }
    }
    const target = toPosix(relative(this.root, current));
    // Only a first part that is exactly `..` leaves the root; `..notes.md` is an ordinary name.
    if (!this.isInside(current) || target === '' || target.split('/')[0] === '..') {
      throw new RepaError(
        'path_outside_space',
        `${JSON.stringify(path)} does not name a file inside the space.`,
      );
    }
    if (target.split('/').some(isProtectedName)) {
      throw new RepaError(
        'protected_path',
        `${JSON.stringify(path)} leads into Repa's own ${REPA_FOLDER} folder.`,
      );
    }
    await this.places.refuseHidden(current, path);
    return { target, absolutePath: current, outside: false };
  }

  /**
   * Reads the whole file at `location` once, with the stat key the bytes belong to and their
   * version (hashed in slices that let the event loop run, so a huge file blocks no one). A file
   * over {@link MAX_READ_BYTES} is `file_too_large`.
   */
  async readStable(
    location: ContentLocation,
  ): Promise<{ bytes: Buffer; statKey: string; version: string; readAt: number }> {
    const shown = JSON.stringify(location.outside ? location.identity : location.target);
    let handle: Awaited<ReturnType<FsLayer['open']>>;
    try {
      // A recorded outside file is read only at its real path, never through a link (spec R15).
      handle = location.outside
        ? await openOutsideFile(this.fs, location.absolutePath, location.identity ?? shown)
        : await this.fs.open(location.absolutePath, READ_NO_FOLLOW);
    } catch (error) {
      const code = errnoCode(error);
      if (isSocketOpenError(error)) throw notRegularFile(shown);
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        if (location.outside) {
          const id = location.identity?.split('/').pop() ?? '';
          throw new RepaError(
            'not_found',
            `The material ${shown} is granted, but its file ${location.absolutePath} is gone.`,
            {
              fix: `Ask the learner to put the file back, or to withdraw the grant (repa materials remove ${id}).`,
              details: { path: location.absolutePath, vanished: true },
            },
          );
        }
        // A name whose bytes are not UTF-8, as a lossy listing showed it, is there: say why.
        throw (
          (await unnamedFileError(this.root, location.target)) ??
          new RepaError('not_found', `There is no file at ${shown}.`)
        );
      }
      if (code === 'ELOOP') {
        throw new RepaError('path_outside_space', `${shown} changed into a symlink while reading.`);
      }
      if (code === 'ENAMETOOLONG') throw pathTooLong(location.target);
      throw ioError(error, `Reading ${shown}`);
    }
    try {
      for (let attempt = 0; ; attempt++) {
        const readAt = Date.now();
        const before = await this.fs.fstat(handle);
        if (before.isDirectory()) {
          throw new RepaError('invalid_request', `${shown} is a folder, not a file.`, {
            fix: 'Name a file inside the folder.',
          });
        }
        // Checked before reading: a FIFO or device opened without blocking is never read.
        if (!before.isFile()) throw notRegularFile(shown, before);
        if (before.size > BigInt(MAX_READ_BYTES)) throw fileTooLarge(shown, before.size);
        const bytes = await this.fs.read(handle);
        // It grew while it was read.
        if (bytes.length > MAX_READ_BYTES) throw fileTooLarge(shown, bytes.length);
        const after = await this.fs.fstat(handle);
        // Contract: the version always belongs to the stat key it is stored with.
        if (statKeyOf(before) === statKeyOf(after) && BigInt(bytes.length) === after.size) {
          const version = await versionOfYielding(bytes);
          return { bytes, statKey: statKeyOf(after), version, readAt };
        }
        if (attempt === 3) {
          throw new RepaError('io_error', `${shown} kept changing while it was read.`, {
            fix: 'Wait until the file stops changing, then read it again.',
          });
        }
      }
    } catch (error) {
      throw ioError(error, `Reading ${shown}`);
    } finally {
      await this.fs.close(handle).catch(() => undefined);
    }
  }

  /**
   * The version, bytes, mode and stat key of the file a save would replace, or `null` when there is
   * none. With `known` (the stat key and version of a settled read) and the same key on disk, the
   * file is not read again: its version is `known.version` and `bytes` is empty.
   */
  async currentVersion(
    absolutePath: string,
    target: string,
    known?: { statKey: string; version: string },
  ): Promise<{
    version: string;
    bytes: Buffer;
    mode: number;
    statKey: string;
    readAt: number;
  } | null> {
    let stats: BigIntStats;
    try {
      stats = await this.fs.lstat(absolutePath);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return null;
      throw ioError(error, `Checking ${target}`);
    }
    if (stats.isDirectory()) {
      throw new RepaError('invalid_request', `${JSON.stringify(target)} is a folder, not a file.`, {
        fix: 'Name a file, not a folder.',
      });
    }
    if (stats.isSymbolicLink()) {
      throw new RepaError('path_outside_space', `${JSON.stringify(target)} became a symlink.`);
    }
    // A FIFO, device or socket is refused from lstat alone: it is never opened.
    if (!stats.isFile()) throw notRegularFile(JSON.stringify(target), stats);
    const mode = Number(stats.mode & 0o7777n);
    // The stat key of a settled read of these bytes: they are `known.version` (nothing to show).
    if (known !== undefined && statKeyOf(stats) === known.statKey) {
      return {
        version: known.version,
        bytes: Buffer.alloc(0),
        mode,
        statKey: known.statKey,
        readAt: Date.now(),
      };
    }
    const { bytes, version, statKey, readAt } = await this.readStable({
      target,
      absolutePath,
      outside: false,
    });
    return { version, bytes, mode, statKey, readAt };
  }

  /** The cheap change key of a space object, or `null` when it is gone. */
  async statKeyOf(target: string): Promise<string | null> {
    try {
      const stats = await this.fs.lstat(join(this.root, target));
      return stats.isFile() ? statKeyOf(stats) : null;
    } catch (error) {
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return null;
      throw ioError(error, `Checking ${target}`);
    }
  }

  /** The folders of `dir` up to the root that do not exist yet, outermost first. */
  async missingDirs(dir: string): Promise<string[]> {
    const missing: string[] = [];
    let current = dir;
    while (current !== this.root) {
      try {
        await this.fs.lstat(current);
        break;
      } catch (error) {
        if (errnoCode(error) !== 'ENOENT') throw ioError(error, `Checking ${current}`);
        missing.unshift(current);
        current = dirname(current);
      }
    }
    return missing;
  }

  /** Throws `path_outside_space` when `dir` is no longer the real folder it was planned as. */
  async expectRealDir(dir: string): Promise<void> {
    let real: string;
    try {
      real = await this.fs.realpath(dir);
    } catch (error) {
      throw ioError(error, `Checking ${this.rel(dir)}`);
    }
    if (real !== dir) {
      throw new RepaError(
        'path_outside_space',
        `The folder ${JSON.stringify(this.rel(dir))} was replaced while saving.`,
      );
    }
  }
}
