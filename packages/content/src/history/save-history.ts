import { type BigIntStats, constants } from 'node:fs';
import { join } from 'node:path';
import { errnoCode } from '@repa/durable-fs';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import {
  dataCorrupt,
  ensureDir,
  exists,
  openOwnFile,
  readDataFile,
  realDirExists,
  versionOfYielding,
  writeRepaFile,
} from '../files/index.js';
import { MAX_READ_BYTES, parseSpacePath, type SpaceResolver } from '../space/index.js';
import {
  MAX_SAVES_LOG_BYTES,
  parseSavesLog,
  recordLine,
  SAVES_LOG,
  SAVES_LOG_HEADER,
  type SavedChange,
  type SaveRecord,
} from './save-record.js';

/** A version: the name of its kept bytes. Nothing read from disk names a path unless it matches. */
const VERSION = /^[0-9a-f]{64}$/u;
/** A group of operations (a run id, a rewind id): the `<group>` of `<group>-<n>`. */
const GROUP = /^[A-Za-z0-9_-]{1,96}$/u;
/** Errors of `link` meaning the file system (or the path between) has no hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);
/** The most save records a space keeps: pruning removes the oldest past it. */
export const MAX_SAVE_RECORDS = 20_000;
/** How the saves log is opened to append to it: created when missing, never through a symlink. */
const APPEND_LOG =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  constants.O_NOFOLLOW |
  constants.O_NONBLOCK;

/** Whether `target` is a path in the one form a tool call gives it. */
function canonical(target: string): boolean {
  try {
    return parseSpacePath(target) === target;
  } catch {
    return false;
  }
}

/** One change as the history needs it before its rename: where it is and what it replaces. */
export interface KeptChange {
  target: string;
  absolutePath: string;
  previousVersion: string | null;
}

/** The saves of one group found in the history, in operation order. */
export interface GroupRecords {
  records: SaveRecord[];
  /** Lines of the log that were not intact records, or records of the group failing a check. */
  damaged: number;
}

/** Why kept bytes cannot be given back: `evicted` (gone), `damaged` (not the version they name). */
export type KeptBytesProblem = 'evicted' | 'damaged';

/** The error for kept bytes of `version` that are gone or damaged. */
export function historyEvicted(version: string, problem: KeptBytesProblem): RepaError {
  return new RepaError(
    'history_evicted',
    problem === 'evicted'
      ? `The bytes of version ${version.slice(0, 12)} are no longer kept in .repa/history.`
      : `The kept bytes of version ${version.slice(0, 12)} are damaged (they do not have that version).`,
    { details: { version, problem } },
  );
}

/**
 * The space's kept history (`.repa/history/`, spec R68): the bytes each save replaced, by version
 * (`bytes/<sha256>`: a hard link to the replaced file's own inode, taken just before the rename, or
 * a copy where links are impossible), and one record per save (a line of `saves.log`).
 * Contract: nothing here ever fails a save (a change whose bytes could not be kept is recorded
 * `kept: false`); everything read back is checked like any `.repa` file (regular, bounded, the
 * version re-hashed; names only from the checked version or operation id, never from contents).
 */
export class SaveHistory {
  /** `.repa/history/`. */
  readonly dir: string;
  /** `.repa/history/bytes/`: the kept bytes by version. */
  readonly bytesDir: string;

  constructor(
    /** The space's addresses and file system. */
    readonly space: SpaceResolver,
  ) {
    this.dir = join(space.repaDir, 'history');
    this.bytesDir = join(this.dir, 'bytes');
  }

  /** The path of the kept bytes of `version` (`invalid_request` for anything but a version). */
  pathOf(version: string): string {
    if (!VERSION.test(version)) {
      throw new RepaError('invalid_request', 'A kept version must be a sha256 hex digest.');
    }
    return join(this.bytesDir, version);
  }

  /**
   * Keeps the bytes each change replaces, right before its rename or unlink (spec R68; run under
   * the space's lock). Returns the kept files it created (a rollback removes them).
   */
  async keep(changes: readonly KeptChange[]): Promise<string[]> {
    const created: string[] = [];
    const replacing = changes.filter((change) => change.previousVersion !== null);
    if (replacing.length === 0) return created;
    try {
      await ensureDir(this.space.fs, this.dir);
      await ensureDir(this.space.fs, this.bytesDir);
    } catch {
      return created;
    }
    for (const change of replacing) {
      const path = this.pathOf(change.previousVersion as string);
      if (await this.keepOne(change, path).catch(() => false)) created.push(path);
    }
    return created;
  }

  /** Keeps one file's bytes at `path`; true when it created `path`. */
  private async keepOne(change: KeptChange, path: string): Promise<boolean> {
    const { fs } = this.space;
    try {
      await fs.link(change.absolutePath, path);
      return true;
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'EEXIST') {
        if (await this.usable(path, change.absolutePath)) return false;
        await fs.unlink(path);
        return this.keepOne(change, path);
      }
      if (!NO_HARD_LINKS.has(code ?? '')) throw error;
    }
    // No hard links here: a copy, checked against the version it is kept as.
    const bytes = await readDataFile(fs, change.absolutePath, 'file', {
      follow: false,
      maxBytes: MAX_READ_BYTES,
    });
    if (bytes === undefined || (await versionOfYielding(bytes)) !== change.previousVersion) {
      return false;
    }
    await writeRepaFile(fs, this.space.repaDir, path, bytes, 'file');
    return true;
  }

  /** Whether kept bytes already at `path` can stand for the file at `source` (same file or size). */
  private async usable(path: string, source: string): Promise<boolean> {
    const { fs } = this.space;
    let kept: BigIntStats;
    let file: BigIntStats;
    try {
      [kept, file] = await Promise.all([fs.lstat(path), fs.lstat(source)]);
    } catch {
      return false;
    }
    if (!kept.isFile()) return false;
    return (kept.dev === file.dev && kept.ino === file.ino) || kept.size === file.size;
  }

  /** Removes kept files a save created and then rolled back. */
  async forget(created: readonly string[]): Promise<void> {
    for (const path of created) await this.space.fs.unlink(path).catch(() => undefined);
  }

  /**
   * Records a save that reached disk (or, `kind: 'command'`, what a command changed): one line
   * appended to `saves.log` (one `write` with `O_APPEND`, no name created, not fsynced: the save's
   * own folder fsync commits it with the journal on file systems that order data, ext4's default).
   * With `once`, a record of `operationId` already there is not written again (recovery). Never
   * throws: a record that cannot be written leaves the save as it is.
   */
  async record(
    operationId: string,
    receipts: readonly SaveReceipt[],
    kind: SaveRecord['kind'] = 'save',
    once = false,
  ): Promise<void> {
    const { fs } = this.space;
    try {
      await ensureDir(fs, this.dir);
      if (once && (await this.all()).records.some((r) => r.operationId === operationId)) return;
      const changes: SavedChange[] = [];
      for (const receipt of receipts) {
        const kept =
          receipt.previousVersion !== null &&
          kind === 'save' &&
          (await exists(fs, this.pathOf(receipt.previousVersion)));
        changes.push({
          target: receipt.target,
          ...(receipt.identity ? { identity: receipt.identity } : {}),
          previousVersion: receipt.previousVersion,
          version: receipt.version,
          bytes: receipt.bytes,
          kept,
        });
      }
      const line = recordLine({ operationId, savedAt: new Date().toISOString(), kind, changes });
      const { handle, size } = await openOwnFile(fs, this.logPath, APPEND_LOG, this.logPath);
      try {
        await fs.write(handle, Buffer.from(size === 0 ? SAVES_LOG_HEADER + line : line, 'utf8'));
      } finally {
        await fs.close(handle).catch(() => undefined);
      }
    } catch {
      // The save stands; a rewind of it then finds its file at a version it has no record of.
    }
  }

  /** `.repa/history/saves.log`. */
  get logPath(): string {
    return join(this.dir, SAVES_LOG);
  }

  /** Every intact record of the log, in order, and how many lines were not intact. */
  async all(): Promise<{ records: SaveRecord[]; damaged: number }> {
    const { fs } = this.space;
    if (!(await this.space.repaDirExists()) || !(await realDirExists(fs, this.dir))) {
      return { records: [], damaged: 0 };
    }
    const bytes = await readDataFile(fs, this.logPath, 'saves log', {
      follow: false,
      maxBytes: MAX_SAVES_LOG_BYTES,
    });
    if (bytes === undefined || bytes.length === 0) return { records: [], damaged: 0 };
    const parsed = await parseSavesLog(bytes);
    if (parsed === undefined) {
      throw dataCorrupt('saves log', this.logPath, 'its first line is not a saves log header', {
        note: 'Diffs and rewinds of earlier runs are then unknown.',
      });
    }
    return parsed;
  }

  /**
   * The records of the operations `<group>-<n>`, in the order of `n`; records whose targets are
   * not in the canonical form a tool call would give are counted `damaged`, never used.
   */
  async records(group: string): Promise<GroupRecords> {
    if (!GROUP.test(group)) {
      throw new RepaError('invalid_request', `${JSON.stringify(group)} is not a run id.`);
    }
    const { records: all, damaged } = await this.all();
    const found: { n: number; record: SaveRecord }[] = [];
    let unsafe = 0;
    for (const record of all) {
      const match = /^(.+)-(\d{1,9})$/u.exec(record.operationId);
      if (match?.[1] !== group) continue;
      // A target read back names a path only in the canonical form a tool call would give.
      if (record.changes.some((change) => !canonical(change.target))) unsafe += 1;
      else found.push({ n: Number(match[2]), record });
    }
    found.sort((a, b) => a.n - b.n);
    return { records: found.map((one) => one.record), damaged: damaged + unsafe };
  }

  /**
   * The kept bytes of `version`, checked: a regular file (no link followed), at most the largest
   * file the store reads, and hashing to `version`; else `history_evicted` (`details.problem`).
   */
  async read(version: string): Promise<Buffer> {
    const path = this.pathOf(version);
    const { fs } = this.space;
    let bytes: Buffer | undefined;
    try {
      const present =
        (await this.space.repaDirExists()) &&
        (await realDirExists(fs, this.dir)) &&
        (await realDirExists(fs, this.bytesDir));
      bytes = present
        ? await readDataFile(fs, path, 'kept bytes', { follow: false, maxBytes: MAX_READ_BYTES })
        : undefined;
    } catch (error) {
      if (RepaError.isInstance(error) && error.code === 'io_error') throw error;
      throw historyEvicted(version, 'damaged');
    }
    if (bytes === undefined) throw historyEvicted(version, 'evicted');
    if ((await versionOfYielding(bytes)) !== version) throw historyEvicted(version, 'damaged');
    return bytes;
  }

  /** Whether the bytes of `version` are kept (present; checked only when read). */
  async has(version: string): Promise<boolean> {
    return VERSION.test(version) && exists(this.space.fs, this.pathOf(version)).catch(() => false);
  }
}
