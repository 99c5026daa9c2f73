import { join } from 'node:path';
import {
  CREATE_EXCLUSIVE,
  errnoCode,
  ioError,
  READ_NO_FOLLOW,
  syncDirectory,
} from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { newIdentity } from './content-address.js';
import { IdentityIndex } from './identity-index.js';
import { dataCorrupt, readDataFile } from './regular-file.js';
import type { SpaceResolver } from './space-resolver.js';
import { statKeyOf, writeRepaFile } from './store-files.js';

const INDEX_FILE = 'identities.json';
/**
 * A hard link to the last index known to be on disk durably, kept while `identities.json` may not
 * be (a read assigned an identity and wrote the index without fsync): if a power loss tears the
 * index, it is read instead, and only identities assigned by reads since are lost.
 */
const DURABLE_COPY = 'identities.durable.json';

/** How far the index file on disk is from surviving a power loss. */
type IndexSync = 'durable' | 'rename-unsynced' | 'unsynced';

/** What a saved change means for the identity index. */
export interface IdentityChange {
  target: string;
  identity: string;
  version: string | null;
}

/**
 * The identity index of a space as this store knows it: the only owner of the changes not yet on
 * disk, which it replays when it reloads an index another store or process replaced.
 */
export class IdentityLedger {
  private index = new IdentityIndex();
  /** Index changes not yet written to disk; replayed when the index is reloaded. */
  private unsaved: ((index: IdentityIndex) => boolean)[] = [];
  /** Stat key of `identities.json` when last read or written (`null`: absent; `undefined`: never read). */
  private indexKey: string | null | undefined;
  /** What of the last write of `identities.json` is not yet fsynced (see {@link assign}). */
  private sync: IndexSync = 'durable';
  /** Whether the index in memory came from the durable copy (the index file was torn). */
  private fromCopy = false;

  constructor(private readonly space: SpaceResolver) {}

  private get file(): string {
    return join(this.space.repaDir, INDEX_FILE);
  }

  private get copy(): string {
    return join(this.space.repaDir, DURABLE_COPY);
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
   * Rereads `identities.json` when another store or process replaced it; keeps unsaved changes.
   * Runs under the space's lock, or alone in this store for a look-up. `repaChecked`: the caller
   * has just made sure `.repa/` is a real folder.
   */
  async reload(repaChecked = false): Promise<void> {
    const { fs } = this.space;
    const file = this.file;
    // Never read an index through a `.repa` that is not a real folder (space_unsafe).
    if (!repaChecked && !(await this.space.repaDirExists())) return;
    const stats = await fs.lstat(file).then(
      (found) => found,
      (error: unknown) => {
        if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return null;
        throw ioError(error, `Checking ${file}`);
      },
    );
    // A symlink, FIFO or folder in its place is damaged data, found without opening it.
    if (stats !== null && !stats.isFile()) {
      throw dataCorrupt('identity index', file, 'it is not a regular file');
    }
    const key = stats === null ? null : statKeyOf(stats);
    if (key === this.indexKey) return;
    let index = new IdentityIndex();
    const bytes = key === null ? undefined : await readDataFile(fs, file, 'identity index');
    this.fromCopy = false;
    if (bytes !== undefined) {
      try {
        index = IdentityIndex.parse(bytes.toString('utf8'), file);
      } catch (error) {
        // Torn by a power loss after a read's unsynced write: the durable copy, if there is one.
        const copy = await this.readCopy(error);
        index = copy;
        this.fromCopy = true;
      }
    }
    // A durable copy on disk means the index file may not be durable (another store's read).
    if (this.sync === 'durable' && (await this.copyExists())) this.sync = 'unsynced';
    for (const change of this.unsaved) change(index);
    this.index = index;
    this.indexKey = key;
  }

  /** The durable copy's index; rethrows `error` (the index file's) when there is none or it is damaged too. */
  private async readCopy(error: unknown): Promise<IdentityIndex> {
    if (!RepaError.isInstance(error) || error.code !== 'data_corrupt') throw error;
    const bytes = await readDataFile(this.space.fs, this.copy, 'identity index').catch(
      () => undefined,
    );
    if (bytes === undefined) throw error;
    if (bytes.length === 0) return new IdentityIndex();
    try {
      return IdentityIndex.parse(bytes.toString('utf8'), this.copy);
    } catch {
      throw error;
    }
  }

  private async copyExists(): Promise<boolean> {
    return this.space.fs.lstat(this.copy).then(
      () => true,
      () => false,
    );
  }

  /**
   * Writes the index to disk; the changes it holds are no longer unsaved. `sync` as for
   * `writeRepaFile`: `all` makes it durable; `file` fsyncs the bytes, not the folder's rename;
   * `none` neither (it survives a killed process, not a power loss). {@link makeDurable} finishes.
   */
  async persist(sync: 'all' | 'file' | 'none' = 'all'): Promise<void> {
    const { fs, repaDir } = this.space;
    const file = this.file;
    const written = this.unsaved.length;
    await writeRepaFile(fs, repaDir, file, this.index.serialize(), sync);
    this.unsaved.splice(0, written);
    this.fromCopy = false;
    this.indexKey = await fs.lstat(file).then(
      (stats) => statKeyOf(stats),
      () => undefined,
    );
    if (sync === 'all') await this.dropCopy();
    else if (sync === 'none') this.sync = 'unsynced';
    else if (this.sync === 'durable') this.sync = 'rename-unsynced';
  }

  /** Writes the index only when it has unsaved changes. */
  async persistIfChanged(): Promise<void> {
    if (this.unsaved.length > 0) await this.persist();
  }

  /**
   * Makes the last index write durable: the file's fsync if a read skipped it and the folder's,
   * side by side; the durable copy is then removed.
   */
  async makeDurable(): Promise<void> {
    const { fs } = this.space;
    if (this.sync === 'durable') return;
    const syncFile = async () => {
      const handle = await fs.open(this.file, READ_NO_FOLLOW);
      try {
        await fs.sync(handle);
      } finally {
        await fs.close(handle).catch(() => undefined);
      }
    };
    // Both at once: in any order, the durable copy stays until both are done, so a power loss in
    // between finds the old index or the copy.
    const results = await Promise.allSettled([
      this.sync === 'unsynced' ? syncFile() : undefined,
      syncDirectory(this.space.repaDir, { fs }),
    ]);
    for (const result of results) if (result.status === 'rejected') throw result.reason;
    await this.dropCopy();
  }

  /** The index file is durable now: its durable copy goes (no fsync: a copy that comes back is older). */
  private async dropCopy(): Promise<void> {
    this.sync = 'durable';
    await this.space.fs.unlink(this.copy).catch(() => undefined);
  }

  /** Applies an index change now and keeps it until it is on disk. */
  private change(change: (index: IdentityIndex) => boolean): void {
    if (change(this.index)) this.unsaved.push(change);
  }

  /**
   * The identity of `target`, assigned and written now if it has none. Runs under the lock.
   * Contract: the identity is in `identities.json` before it is returned (it survives a killed
   * process). The index is written without fsync when a durable copy of the last durable index
   * can be kept beside it (a hard link): a power loss before the next save
   * ({@link makeDurable}) then loses at most the identities assigned by reads since, never the
   * index. Without such a copy (no index yet, no hard links) the file is fsynced, not its folder.
   */
  async assign(target: string): Promise<string> {
    const existing = this.index.identityOf(target);
    if (existing !== undefined) return existing;
    const identity = newIdentity();
    // Replayed onto a reloaded index only if nobody gave the path an identity meanwhile.
    this.change((index) => index.identityOf(target) === undefined && index.set(identity, target));
    await this.persist((await this.keepDurableCopy()) ? 'none' : 'file');
    return identity;
  }

  /**
   * Whether a durable copy of the index is on disk (made now: a hard link of the index file when
   * its bytes are durable, an empty file when there is no index yet); `false` when none can be kept.
   */
  private async keepDurableCopy(): Promise<boolean> {
    if (this.sync === 'unsynced') return true;
    // The index file's bytes are durable (its folder entry maybe not: then a power loss leaves an
    // older index and no copy, never a torn one).
    if (this.fromCopy || this.indexKey === undefined) return false;
    const { fs } = this.space;
    try {
      // No index yet: an empty copy stands for the empty index (no bytes, so nothing to fsync).
      if (this.indexKey === null) await fs.close(await fs.open(this.copy, CREATE_EXCLUSIVE, 0o666));
      else await fs.link(this.file, this.copy);
      return true;
    } catch (error) {
      // A copy left by an earlier run is the last durable index (only makeDurable removes it).
      return errnoCode(error) === 'EEXIST';
    }
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
