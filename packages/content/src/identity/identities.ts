import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { errnoCode, type FsHandle, ioError } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import {
  dataCorrupt,
  openOwnFile,
  readDataFile,
  statKeyOf,
  writeRepaFile,
} from '../files/index.js';
import { newIdentity, type SpaceResolver } from '../space/index.js';
import { IdentityIndex, readIndexFile } from './identity-index.js';
import {
  LOG_FILE,
  type LogContent,
  logHeader,
  logLine,
  MAX_LOG_BYTES,
  OPEN_LOG,
  parseLog,
} from './identity-log.js';
import { LogDurability } from './log-durability.js';

const INDEX_FILE = 'identities.json';
/** Earlier versions' hard link to the last durable index; read only when the index is torn. */
const LEGACY_COPY = 'identities.durable.json';
/** A log longer than this is folded into the index at the next save. */
const FOLD_BYTES = 256 * 1024;

const NOTES: Record<string, string> = {
  'identity index': 'Removing it forgets which repa: identity names which file.',
  'identity log':
    'Removing it forgets the repa: identities given since the index was last written.',
};
/** The device and inode part of a stat key. */
const inodeOf = (key: string) => key.split(':', 2).join(':');

/** What a saved change means for the identity index. */
export interface IdentityChange {
  target: string;
  identity: string;
  version: string | null;
}

/**
 * The identities of a space as this store knows them: `identities.json` (written atomically and
 * durably) plus the entries of `identities.log` that belong to it. The only owner of the changes
 * not yet on disk, which it replays when it reloads what another store or process wrote.
 */
export class Identities {
  private index = new IdentityIndex();
  /** Index changes not yet written to disk; replayed when the index is reloaded. */
  private unsaved: ((index: IdentityIndex) => boolean)[] = [];
  /** Stat keys of the index and the log when last read or written (`null`: absent; `undefined`: never read). */
  private indexKey: string | null | undefined;
  private logKey: string | null | undefined;
  /** The id the log on disk carries, when it is the index's log (`undefined`: it must be started anew). */
  private logId: string | undefined;
  /** Bytes in the log (to fold it into the index once it grows). */
  private logBytes = 0;
  /** Where the log's intact lines end when a write was cut short after them (cut back before the next entry). */
  private logCut: number | undefined;

  /** Whether the log's lines are on disk. */
  private readonly durability: LogDurability;

  constructor(private readonly space: SpaceResolver) {
    this.durability = new LogDurability(space);
  }

  private get file(): string {
    return join(this.space.repaDir, INDEX_FILE);
  }

  private get log(): string {
    return join(this.space.repaDir, LOG_FILE);
  }

  /** The identity of the object at `path`, if it has one. */
  identityOf(path: string): string | undefined {
    return this.index.identityOf(path);
  }

  /** The path an identity names now, if known. */
  pathOf(identity: string): string | undefined {
    return this.index.pathOf(identity);
  }

  /**
   * Rereads the index and the log when another store or process changed them; keeps unsaved
   * changes. Runs under the space's lock, or alone in this store for a look-up. `repaChecked`: the
   * caller has just made sure `.repa/` is a real folder.
   */
  async reload(repaChecked = false): Promise<void> {
    // Never read through a `.repa` that is not a real folder (space_unsafe).
    if (!repaChecked && !(await this.space.repaDirExists())) return;
    const indexKey = await this.keyOf(this.file, 'identity index');
    const logKey = await this.keyOf(this.log, 'identity log');
    if (indexKey === this.indexKey && logKey === this.logKey) return;
    const index = indexKey === null ? new IdentityIndex() : await this.readIndex();
    const log = logKey === null ? undefined : await this.readLog();
    // An index names the log written after it; one without a name (none yet, or written by an
    // earlier version, which kept no log) takes whatever log there is.
    const ours = log !== undefined && (index.logId === undefined || index.logId === log.id);
    for (const entry of ours ? log.entries : []) {
      if (
        index.identityOf(entry.target) === undefined &&
        index.pathOf(entry.identity) === undefined
      )
        index.set(entry.identity, entry.target);
    }
    for (const change of this.unsaved) change(index);
    // Another store's log lines (and a log it created) may not be durable yet: the next save
    // makes them so. A log that is gone has nothing left to make durable.
    if (logKey === null) {
      this.durability.settle();
      this.durability.logCreated = false;
    } else if (logKey !== this.logKey) {
      if (this.logKey == null || inodeOf(logKey) !== inodeOf(this.logKey)) {
        this.durability.logCreated = true;
      }
      this.durability.changed();
    }
    this.index = index;
    this.indexKey = indexKey;
    this.logKey = logKey;
    this.logId = ours ? log.id : undefined;
    this.logCut = ours && log.intact < log.size ? log.intact : undefined;
  }

  /** Stat key of the index or the log (`null`: absent); anything but a plain file is damaged data. */
  private async keyOf(file: string, what: string): Promise<string | null> {
    const stats = await this.space.fs.lstat(file).then(
      (found) => found,
      (error: unknown) => {
        if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return null;
        throw ioError(error, `Checking ${file}`);
      },
    );
    // A symlink, FIFO or folder in its place is damaged data, found without opening it.
    if (stats !== null && !stats.isFile()) {
      throw dataCorrupt(what, file, 'it is not a regular file', { note: NOTES[what] });
    }
    return stats === null ? null : statKeyOf(stats);
  }

  private async readIndex(): Promise<IdentityIndex> {
    const file = this.file;
    const bytes = await readIndexFile(this.space.fs, file);
    if (bytes === undefined) return new IdentityIndex();
    try {
      return IdentityIndex.parse(bytes.toString('utf8'), file);
    } catch (error) {
      // Torn by a power loss in an earlier version (which wrote it without fsync): its copy.
      return this.readLegacyCopy(error);
    }
  }

  /** The legacy durable copy's index; rethrows `error` (the index file's) when there is none or it is damaged too. */
  private async readLegacyCopy(error: unknown): Promise<IdentityIndex> {
    if (!RepaError.isInstance(error) || error.code !== 'data_corrupt') throw error;
    const copy = join(this.space.repaDir, LEGACY_COPY);
    const bytes = await readIndexFile(this.space.fs, copy).catch(() => undefined);
    if (bytes === undefined) throw error;
    if (bytes.length === 0) return new IdentityIndex();
    try {
      return IdentityIndex.parse(bytes.toString('utf8'), copy);
    } catch {
      throw error;
    }
  }

  /**
   * The log's id and its entries up to the first line that is not intact (a write a power loss cut
   * short); `undefined` when its header is not one (it is then started anew before the next entry).
   */
  private async readLog(): Promise<LogContent | undefined> {
    const bytes = await readDataFile(this.space.fs, this.log, 'identity log', {
      maxBytes: MAX_LOG_BYTES,
      follow: false,
      note: NOTES['identity log'],
    });
    if (bytes === undefined) return undefined;
    this.logBytes = bytes.length;
    return parseLog(bytes);
  }

  /**
   * Writes the whole index durably (temp file, fsync, rename, folder fsync) with a new log id, then
   * starts the log anew; the changes it holds are no longer unsaved.
   */
  async persist(): Promise<void> {
    const { fs, repaDir } = this.space;
    const written = this.unsaved.length;
    const logId = randomUUID();
    try {
      await writeRepaFile(fs, repaDir, this.file, this.index.serialize(logId), 'all');
    } catch (error) {
      // A failure after the rename (the folder's fsync) leaves the new index, naming the new log.
      const onDisk = await this.readIndex().catch(() => undefined);
      if (onDisk?.logId === logId) {
        this.index.logId = logId;
        this.logId = undefined;
        this.indexKey = undefined;
      }
      throw error;
    }
    this.unsaved.splice(0, written);
    this.index.logId = logId;
    this.indexKey = await this.keyOf(this.file, 'identity index').catch(() => undefined);
    // Every entry of the old log is in the index now, which no longer takes that log: a log
    // cut short or left as it was (a crash right here) is ignored, and started anew below or
    // before the next entry.
    this.logId = undefined;
    this.durability.settle();
    await this.startLog(logId).catch(() => undefined);
    await fs.unlink(join(repaDir, LEGACY_COPY)).catch(() => undefined);
  }

  /** Writes the index when it has unsaved changes, or when the log has grown long. */
  async persistIfChanged(): Promise<void> {
    if (this.unsaved.length > 0 || this.logBytes > FOLD_BYTES) await this.persist();
  }

  /**
   * Makes the identities logged by reads since the last save durable (the log's fsync; also the
   * folder's when the log is new to this store), before the save that follows can be reported.
   * Usually a pass started right after the append ({@link LogDurability.syncSoon}) has done it
   * already.
   */
  async makeDurable(): Promise<void> {
    const durability = this.durability;
    for (;;) {
      const inFlight = durability.inFlight;
      if (inFlight !== undefined) await inFlight.catch(() => undefined);
      else if (durability.failed) {
        // Every identity the store knows, the logged ones too, goes to a new index, fsynced.
        await this.persist();
        durability.failed = false;
      } else if (!durability.pending) return;
      else await durability.syncPass();
    }
  }

  /** Applies an index change now and keeps it until it is on disk. */
  private change(change: (index: IdentityIndex) => boolean): void {
    if (change(this.index)) this.unsaved.push(change);
  }

  /**
   * The identity of `target`, assigned and logged now if it has none. Runs under the lock.
   * Contract: the identity is on disk before it is returned (it survives a killed process): one
   * line appended to `identities.log`; its fsync starts then but is not waited for; the next save
   * waits for it ({@link makeDurable}) before it is reported. When the line cannot be written, the read fails
   * and the identity is forgotten (it was never shown).
   */
  async assign(target: string): Promise<string> {
    const existing = this.index.identityOf(target);
    if (existing !== undefined) return existing;
    const identity = newIdentity();
    // Kept only once logged: after a failed write the next read gives the path an identity anew.
    const handle = await this.append(logLine(identity, target));
    this.index.set(identity, target);
    this.durability.syncSoon(handle);
    return identity;
  }

  /**
   * Appends `line` to the log (one `write` with `O_APPEND`), starting the log first when it must.
   * Returns the log still open, for the fsync that makes the line durable (the caller closes it).
   */
  private async append(line: string): Promise<FsHandle> {
    if (this.logId === undefined) await this.startLog(this.index.logId ?? randomUUID());
    const { handle, size } = await this.openLog();
    const { fs } = this.space;
    // A line cut short (a power loss, or a write that failed half-way) would hide every line after it.
    const intact = this.logCut ?? size;
    try {
      if (intact !== size) await fs.truncate(handle, intact);
      this.logCut = undefined;
      await fs.write(handle, Buffer.from(line, 'utf8'));
      this.durability.changed();
      this.logBytes = intact + Buffer.byteLength(line, 'utf8');
      this.logKey = statKeyOf(await fs.fstat(handle));
      return handle;
    } catch (error) {
      this.logCut = intact;
      await fs.close(handle).catch(() => undefined);
      throw ioError(error, `Writing ${this.log}`);
    }
  }

  /** Empties the log (or creates it) and writes its header naming `logId`. */
  private async startLog(logId: string): Promise<void> {
    const { handle } = await this.openLog();
    const { fs } = this.space;
    try {
      const header = logHeader(logId);
      await fs.truncate(handle, 0);
      await fs.write(handle, Buffer.from(header, 'utf8'));
      this.logId = logId;
      this.logCut = undefined;
      this.logBytes = header.length;
      this.logKey = statKeyOf(await fs.fstat(handle));
    } catch (error) {
      throw ioError(error, `Writing ${this.log}`);
    } finally {
      await fs.close(handle).catch(() => undefined);
    }
  }

  /**
   * Opens the log for appending, creating it if missing; a plain file with one link, else
   * `space_unsafe`. Also its size now.
   */
  private async openLog(): Promise<{ handle: FsHandle; size: number }> {
    const opened = await openOwnFile(this.space.fs, this.log, OPEN_LOG, this.log);
    if (this.logKey === null || this.logKey === undefined) this.durability.logCreated = true;
    return opened;
  }

  /**
   * Applies the identity changes of saved changes to the index (deletes first, then moves and new
   * objects); keeps them unsaved when anything changed.
   */
  apply(changes: readonly IdentityChange[]): void {
    const kept = new Set(
      changes.filter((change) => change.version !== null).map((change) => change.identity),
    );
    for (const change of changes) {
      if (change.version !== null) continue;
      this.change((index) => {
        const identity = index.identityOf(change.target);
        return identity !== undefined && !kept.has(identity) && index.remove(identity);
      });
    }
    for (const change of changes)
      if (change.version !== null)
        this.change((index) => index.set(change.identity, change.target));
  }
}
