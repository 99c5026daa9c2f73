import type { BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { errnoCode } from '@repa/durable-fs';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import {
  ensureDir,
  exists,
  readDataFile,
  realDirExists,
  versionOfYielding,
  writeRepaFile,
} from '../files/index.js';
import { MAX_READ_BYTES, parseSpacePath, type SpaceResolver } from '../space/index.js';
import {
  MAX_SAVE_RECORD_BYTES,
  type SavedChange,
  type SaveRecord,
  saveRecordSchema,
} from './save-record.js';

/** A version: the name of its kept bytes. Nothing read from disk names a path unless it matches. */
const VERSION = /^[0-9a-f]{64}$/u;
/** A group of operations (a run id, a rewind id): the `<group>` of `<group>-<n>`. */
const GROUP = /^[A-Za-z0-9_-]{1,96}$/u;
/** Errors of `link` meaning the file system (or the path between) has no hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV', 'EMLINK']);
/** The most save records a space keeps: pruning removes the oldest past it unread. */
export const MAX_SAVE_RECORDS = 20_000;

/** One change as the history needs it before its rename: where it is and what it replaces. */
export interface KeptChange {
  target: string;
  absolutePath: string;
  previousVersion: string | null;
}

/** The saves of one group found in the history, in operation order, and the records not trusted. */
export interface GroupRecords {
  records: SaveRecord[];
  /** Record files of the group that could not be read or failed a check (their names). */
  damaged: string[];
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
 * The space's kept history (`.repa/history/`): the bytes each save replaced, by version
 * (`bytes/<sha256>`: a hard link to the replaced file's own inode, taken just before the rename, or
 * a copy where links are impossible), and one record per save (`saves/<operationId>.json`).
 * Contract: nothing here ever fails a save (a change whose bytes could not be kept is recorded
 * `kept: false`); everything read back is checked like any `.repa` file (regular, bounded, the
 * version re-hashed; names only from the checked version or operation id, never from contents).
 */
export class SaveHistory {
  /** `.repa/history/`. */
  readonly dir: string;
  /** `.repa/history/bytes/`: the kept bytes by version. */
  readonly bytesDir: string;
  /** `.repa/history/saves/`: one record per save. */
  readonly savesDir: string;

  constructor(
    /** The space's addresses and file system. */
    readonly space: SpaceResolver,
  ) {
    this.dir = join(space.repaDir, 'history');
    this.bytesDir = join(this.dir, 'bytes');
    this.savesDir = join(this.dir, 'saves');
  }

  /** The path of the kept bytes of `version` (`invalid_request` for anything but a version). */
  pathOf(version: string): string {
    if (!VERSION.test(version)) {
      throw new RepaError('invalid_request', 'A kept version must be a sha256 hex digest.');
    }
    return join(this.bytesDir, version);
  }

  /**
   * Keeps the bytes each change replaces, right before its rename or unlink (spec R60–R66: run
   * under the space's lock). Returns the kept files it created (a rollback removes them).
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
   * Records a save that reached disk (or, `kind: 'command'`, what a command changed), unless a
   * record of `operationId` exists (recovery finishing a save records it once). Returns the folders
   * the save must sync for the record and its kept bytes to survive a power loss; never throws.
   */
  async record(
    operationId: string,
    receipts: readonly SaveReceipt[],
    kind: SaveRecord['kind'] = 'save',
  ): Promise<string[]> {
    const { fs, repaDir } = this.space;
    try {
      await ensureDir(fs, this.dir);
      await ensureDir(fs, this.savesDir);
      const path = join(this.savesDir, `${operationId}.json`);
      if (await exists(fs, path)) return [];
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
      const record: SaveRecord = {
        format: 'repa.saved/1',
        operationId,
        savedAt: new Date().toISOString(),
        kind,
        changes,
      };
      // Atomic (temp file, rename) but not fsynced here: the save syncs these folders with its own.
      await writeRepaFile(fs, repaDir, path, JSON.stringify(record), 'none');
      return [this.savesDir, ...(changes.some((change) => change.kept) ? [this.bytesDir] : [])];
    } catch {
      return [];
    }
  }

  /** The records of the operations `<group>-<n>`, in the order of `n`. */
  async records(group: string): Promise<GroupRecords> {
    if (!GROUP.test(group)) {
      throw new RepaError('invalid_request', `${JSON.stringify(group)} is not a run id.`);
    }
    const found: { n: number; name: string }[] = [];
    for (const name of await this.recordNames()) {
      const match = /^(.+)-(\d{1,9})\.json$/u.exec(name);
      if (match?.[1] === group) found.push({ n: Number(match[2]), name });
    }
    found.sort((a, b) => a.n - b.n);
    const result: GroupRecords = { records: [], damaged: [] };
    for (const { name } of found) {
      const record = await this.readRecord(name);
      if (record === undefined) result.damaged.push(name);
      else result.records.push(record);
    }
    return result;
  }

  /** The names of the record files, in name order. */
  async recordNames(): Promise<string[]> {
    const { fs } = this.space;
    if (!(await this.space.repaDirExists())) return [];
    if (!(await realDirExists(fs, this.dir)) || !(await realDirExists(fs, this.savesDir))) {
      return [];
    }
    const names = await fs.readdir(this.savesDir);
    return names.filter((name) => name.endsWith('.json')).sort();
  }

  /** The record in `saves/<name>`, checked, or `undefined` when it is damaged or not Repa's. */
  async readRecord(name: string): Promise<SaveRecord | undefined> {
    await nextTurn();
    try {
      const bytes = await readDataFile(this.space.fs, join(this.savesDir, name), 'save record', {
        follow: false,
        maxBytes: MAX_SAVE_RECORD_BYTES,
      });
      if (bytes === undefined) return undefined;
      const record = saveRecordSchema.parse(JSON.parse(bytes.toString('utf8')));
      if (`${record.operationId}.json` !== name) return undefined;
      for (const change of record.changes) {
        // A target read back names a path only in the canonical form a tool call would give.
        if (parseSpacePath(change.target) !== change.target) return undefined;
      }
      return record;
    } catch {
      return undefined;
    }
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
