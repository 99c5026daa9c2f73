import type { BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { errnoCode, type FsHandle } from '@repa/durable-fs';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import {
  APPEND_OWN_LOG,
  dataCorrupt,
  ensureDir,
  exists,
  openOwnFile,
  readDataFile,
  realDirExists,
  statKeyOf,
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

/** A kept file made by a new hard link: the target's stat key right before it and right after. */
interface LinkedKeep {
  before: string;
  after: string;
}

/** A save's history made ready while its temp files reach disk ({@link SaveHistory.prepare}). */
export interface PreparedHistory {
  /** Kept files this save created (a rollback removes them). */
  created: string[];
  /** The versions whose bytes are kept. */
  kept: Set<string>;
  /**
   * The targets kept by a new hard link, by absolute path: their stat key right before the link and
   * right after it (the link moves the inode's ctime). A target still at `after` when re-checked is
   * the linked file, unchanged since the link, which had the key `before`.
   */
  linked: Map<string, LinkedKeep>;
  /** The saves log, opened and checked, for the record written after the renames. */
  log: { handle: FsHandle; size: number } | undefined;
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
   * the space's lock; recovery's roll-forward). Returns the kept files it created.
   */
  async keep(changes: readonly KeptChange[]): Promise<string[]> {
    return (await this.keepAll(changes, false)).created;
  }

  /**
   * A save's history work done while its temp files reach disk (run under the space's lock): the
   * bytes each change replaces kept (a hard link taken now; {@link PreparedHistory.linked} lets the
   * re-check before the renames confirm it) and the saves log opened and checked. Never throws.
   */
  async prepare(changes: readonly KeptChange[]): Promise<PreparedHistory> {
    const prepared = await this.keepAll(changes, true);
    try {
      await ensureDir(this.space.fs, this.dir);
      prepared.log = await openOwnFile(this.space.fs, this.logPath, APPEND_OWN_LOG, this.logPath);
    } catch {
      // `record` tries again the usual way.
    }
    return prepared;
  }

  /**
   * Keeps `changes` again, the way {@link keep} does, where the re-check found a target other than
   * the file linked by {@link prepare} (changed or replaced since).
   */
  async keepAgain(prepared: PreparedHistory, changes: readonly KeptChange[]): Promise<void> {
    for (const change of changes) {
      const path = this.pathOf(change.previousVersion as string);
      prepared.linked.delete(change.absolutePath);
      prepared.kept.delete(change.previousVersion as string);
      if (prepared.created.includes(path)) {
        await this.space.fs.unlink(path).catch(() => undefined);
        prepared.created.splice(prepared.created.indexOf(path), 1);
      }
      const kept = await this.keepOne(change, path, false).catch(() => undefined);
      if (kept === undefined) continue;
      prepared.kept.add(change.previousVersion as string);
      if (kept.created) prepared.created.push(path);
    }
  }

  private async keepAll(changes: readonly KeptChange[], early: boolean): Promise<PreparedHistory> {
    const prepared: PreparedHistory = {
      created: [],
      kept: new Set(),
      linked: new Map(),
      log: undefined,
    };
    const replacing = changes.filter((change) => change.previousVersion !== null);
    if (replacing.length === 0) return prepared;
    try {
      await ensureDir(this.space.fs, this.dir);
      await ensureDir(this.space.fs, this.bytesDir);
    } catch {
      return prepared;
    }
    for (const change of replacing) {
      const version = change.previousVersion as string;
      const path = this.pathOf(version);
      const kept = await this.keepOne(change, path, early).catch(() => undefined);
      if (kept === undefined) continue;
      prepared.kept.add(version);
      if (kept.created) prepared.created.push(path);
      if (kept.linked !== undefined) prepared.linked.set(change.absolutePath, kept.linked);
    }
    return prepared;
  }

  /**
   * Keeps one file's bytes at `path`: whether it created `path`, and (`early`) the keys of a new
   * link; `undefined` when they cannot be kept.
   */
  private async keepOne(
    change: KeptChange,
    path: string,
    early: boolean,
  ): Promise<{ created: boolean; linked?: LinkedKeep } | undefined> {
    const { fs } = this.space;
    try {
      const before = early ? statKeyOf(await fs.lstat(change.absolutePath)) : undefined;
      await fs.link(change.absolutePath, path);
      // The link moved the inode's ctime: the key it has now is the one the re-check finds.
      const after = before === undefined ? undefined : statKeyOf(await fs.lstat(path));
      return { created: true, ...(before && after ? { linked: { before, after } } : {}) };
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'EEXIST') {
        if (await this.usable(path, change.absolutePath)) return { created: false };
        await fs.unlink(path);
        return this.keepOne(change, path, early);
      }
      if (!NO_HARD_LINKS.has(code ?? '')) throw error;
    }
    // No hard links here: a copy, checked against the version it is kept as.
    const bytes = await readDataFile(fs, change.absolutePath, 'file', {
      follow: false,
      maxBytes: MAX_READ_BYTES,
    });
    if (bytes === undefined || (await versionOfYielding(bytes)) !== change.previousVersion) {
      return undefined;
    }
    await writeRepaFile(fs, this.space.repaDir, path, bytes, 'file');
    return { created: true };
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

  /** Undoes {@link prepare} for a save rolled back: the kept files it created go, the log closes. */
  async forget(prepared: PreparedHistory): Promise<void> {
    for (const path of prepared.created) await this.space.fs.unlink(path).catch(() => undefined);
    await this.close(prepared);
  }

  /** Closes the saves log {@link prepare} opened, when no record is written with it. */
  async close(prepared: PreparedHistory): Promise<void> {
    const log = prepared.log;
    prepared.log = undefined;
    if (log !== undefined) await this.space.fs.close(log.handle).catch(() => undefined);
  }

  /**
   * Records a save that reached disk (or, `kind: 'command'`, what a command changed): one line
   * appended to `saves.log` (one `write` with `O_APPEND`, no name created, not fsynced: the save's
   * own folder fsync commits it with the journal on file systems that order data, ext4's default).
   * With `once`, a record of `operationId` already there is not written again (recovery); with
   * `prepared`, what {@link prepare} kept and the log it opened are used (and the log closed). Never
   * throws: a record that cannot be written leaves the save as it is.
   */
  async record(
    operationId: string,
    receipts: readonly SaveReceipt[],
    options: { kind?: SaveRecord['kind']; once?: boolean; prepared?: PreparedHistory } = {},
  ): Promise<void> {
    const { fs } = this.space;
    const { kind = 'save', once = false, prepared } = options;
    // The prepared log is this call's to close: by the write's own `finally` once it is used, else
    // here when something fails before.
    let log = prepared?.log;
    if (prepared !== undefined) prepared.log = undefined;
    try {
      if (log === undefined) await ensureDir(fs, this.dir);
      if (once && (await this.all()).records.some((r) => r.operationId === operationId)) return;
      const changes: SavedChange[] = [];
      for (const receipt of receipts) {
        const kept =
          receipt.previousVersion !== null &&
          kind === 'save' &&
          (prepared !== undefined
            ? prepared.kept.has(receipt.previousVersion)
            : await exists(fs, this.pathOf(receipt.previousVersion)));
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
      const { handle, size } =
        log ?? (await openOwnFile(fs, this.logPath, APPEND_OWN_LOG, this.logPath));
      log = undefined;
      try {
        await fs.write(handle, Buffer.from(size === 0 ? SAVES_LOG_HEADER + line : line, 'utf8'));
      } finally {
        await fs.close(handle).catch(() => undefined);
      }
    } catch {
      if (log !== undefined) await fs.close(log.handle).catch(() => undefined);
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
