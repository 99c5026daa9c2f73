import { join } from 'node:path';
import { errnoCode, ioError, syncDirectory } from '@repa/durable-fs';
import { newIdentity } from './content-address.js';
import { IdentityIndex } from './identity-index.js';
import { dataCorrupt, readDataFile } from './regular-file.js';
import type { SpaceResolver } from './space-resolver.js';
import { statKeyOf, writeRepaFile } from './store-files.js';

const INDEX_FILE = 'identities.json';

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
  /** Whether `identities.json` was last replaced without the folder fsync (see {@link assign}). */
  private renameUnsynced = false;

  constructor(private readonly space: SpaceResolver) {}

  private get file(): string {
    return join(this.space.repaDir, INDEX_FILE);
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
   * Runs under the space's lock, or alone in this store for a look-up.
   */
  async reload(): Promise<void> {
    const { fs } = this.space;
    const file = this.file;
    // Never read an index through a `.repa` that is not a real folder (space_unsafe).
    if (!(await this.space.repaDirExists())) return;
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
    if (bytes !== undefined) index = IdentityIndex.parse(bytes.toString('utf8'), file);
    for (const change of this.unsaved) change(index);
    this.index = index;
    this.indexKey = key;
  }

  /**
   * Writes the index to disk; the changes it holds are no longer unsaved. `durable: false` fsyncs
   * the new file's bytes but not the folder's rename: it survives a killed process, and a power
   * loss leaves the old or the new index, never a torn one; {@link makeDurable} finishes it.
   */
  async persist(durable = true): Promise<void> {
    const { fs, repaDir } = this.space;
    const file = this.file;
    const written = this.unsaved.length;
    await writeRepaFile(fs, repaDir, file, this.index.serialize(), durable ? 'all' : 'file');
    this.renameUnsynced = !durable;
    this.unsaved.splice(0, written);
    this.indexKey = await fs.lstat(file).then(
      (stats) => statKeyOf(stats),
      () => undefined,
    );
  }

  /** Writes the index only when it has unsaved changes. */
  async persistIfChanged(): Promise<void> {
    if (this.unsaved.length > 0) await this.persist();
  }

  /** Flushes the rename of an index written by {@link assign} (the folder fsync it skipped). */
  async makeDurable(): Promise<void> {
    if (!this.renameUnsynced) return;
    await syncDirectory(this.space.repaDir, { fs: this.space.fs });
    this.renameUnsynced = false;
  }

  /** Applies an index change now and keeps it until it is on disk. */
  private change(change: (index: IdentityIndex) => boolean): void {
    if (change(this.index)) this.unsaved.push(change);
  }

  /**
   * The identity of `target`, assigned and written now if it has none. Runs under the lock.
   * Contract: the identity is on disk before it is returned (it survives a killed process); the
   * folder fsync that makes its rename survive a power loss is left to the next save
   * ({@link makeDurable}), so a read costs one fsync, not two.
   */
  async assign(target: string): Promise<string> {
    const existing = this.index.identityOf(target);
    if (existing !== undefined) return existing;
    const identity = newIdentity();
    // Replayed onto a reloaded index only if nobody gave the path an identity meanwhile.
    this.change((index) => index.identityOf(target) === undefined && index.set(identity, target));
    await this.persist(false);
    return identity;
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
