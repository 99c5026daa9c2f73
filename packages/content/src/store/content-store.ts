import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import { exists } from '../files/index.js';
import { SaveHistory } from '../history/index.js';
import { Identities } from '../identity/index.js';
import {
  type ContentStoreHooks,
  OPERATION_ID,
  planSave,
  type RecoverableIntent,
  type RecoveredSave,
  type SaveChange,
  SaveCommitter,
  SaveRecovery,
} from '../save/index.js';
import {
  type ContentLocation,
  type ContentSnapshot,
  holdSpace,
  isCaseInsensitive,
  parseIdentity,
  SpaceResolver,
} from '../space/index.js';
import { LockTenure } from './lock-tenure.js';
import { TimestampWindow } from './timestamp-window.js';

/** Options of {@link ContentStore.open}. */
export interface ContentStoreOptions {
  /** The space root folder; it must exist. */
  root: string;
  /**
   * The application config directory (spec R15). Its `repa-content-access.json` grants read
   * access to outside materials; without it no outside material is reachable.
   */
  appDirectory?: string;
  /** @internal */
  fs?: FsLayer;
  /** @internal */
  hooks?: ContentStoreHooks;
}

/** Options of {@link ContentStore.save}. */
export interface SaveOptions {
  /** The operation id (letters, digits, `-`, `_`); generated when absent. */
  operationId?: string;
  /** Checked once before the save starts; a save that has begun always finishes. */
  signal?: AbortSignal;
}

/** The live stores of this process, one per real space root and app directory. */
const sharedStores = new Map<string, Promise<ContentStore>>();

/** How many settled reads a store remembers for its saves' plans (oldest forgotten first). */
const REMEMBERED_READS = 1024;

function cancelled(): RepaError {
  return new RepaError(
    'cancelled',
    'The save was cancelled before it started; nothing was written.',
  );
}

/**
 * The files of one space: safe addressing (paths and `repa:` identities), snapshots with versions,
 * and crash-safe saves against an expected version (spec R60–R66).
 *
 * Contract: nothing is written outside the space or into `.repa/` except Repa's own records; an
 * existing object is only replaced against the version the caller observed; a save either reaches
 * disk completely (per object: old bytes or new bytes, never a mix) or leaves a recoverable intent.
 */
export class ContentStore {
  /** The space root, symlinks resolved. */
  readonly root: string;
  /**
   * The space's addresses and stable reads (the observer checks stat keys through it).
   * @internal
   */
  readonly space: SpaceResolver;
  /**
   * The kept bytes and save records of `.repa/history/` (diffs and rewinds read them).
   * @internal
   */
  readonly history: SaveHistory;
  private readonly identities: Identities;
  private readonly committer: SaveCommitter;
  private readonly recovery: SaveRecovery;
  /** Whether the space's disk takes names differing only by case for one (probed at open). */
  private caseInsensitive = false;
  /** Its tasks' turns, the space lock and the intent slot. */
  private readonly tenure: LockTenure;
  /**
   * Per target, the settled stat key and version of this store's last read of it: a save planned
   * against that version whose target still has the key needs no read (the observer's rule).
   */
  private readonly settledReads = new Map<string, { statKey: string; version: string }>();
  private readonly report: RecoveredSave[] = [];
  /** When a stat key of this space stands for its bytes. */
  private readonly window: TimestampWindow;

  private constructor(root: string, options: ContentStoreOptions, fs: FsLayer) {
    this.root = root;
    this.space = new SpaceResolver(root, options.root, options.appDirectory, fs);
    this.identities = new Identities(this.space);
    this.history = new SaveHistory(this.space);
    const hooks = options.hooks ?? {};
    this.committer = new SaveCommitter(this.space, this.identities, hooks, this.history);
    this.recovery = new SaveRecovery(this.space, this.identities, this.history);
    this.window = new TimestampWindow(this.space);
    this.tenure = new LockTenure(this.space, this.identities);
  }

  /**
   * Opens the space at `options.root`: loads the identity index and resolves pending intents left by
   * a crash (rolled forward when their first rename happened, otherwise kept as recoverable).
   * Contract: within a process every open of the same real root and app directory returns the same
   * live store (recovery runs once); only test options (`fs`, `hooks`) give a private store.
   */
  static async open(options: ContentStoreOptions): Promise<ContentStore> {
    const fs = options.fs ?? nodeFsLayer;
    let root: string | undefined;
    try {
      root = await fs.realpath(options.root);
      if (!(await fs.lstat(root)).isDirectory()) root = undefined;
    } catch {
      root = undefined;
    }
    if (root === undefined) {
      throw new RepaError('not_found', `The space folder ${options.root} does not exist.`, {
        fix: 'Create the folder or open another space.',
      });
    }
    if (options.fs !== undefined || options.hooks !== undefined) {
      return ContentStore.start(root, options, fs);
    }
    const key = `${root}\0${options.appDirectory === undefined ? '' : resolve(options.appDirectory)}`;
    let shared = sharedStores.get(key);
    if (shared === undefined) {
      shared = ContentStore.start(root, options, fs);
      sharedStores.set(key, shared);
      shared.catch(() => sharedStores.delete(key));
    }
    return shared;
  }

  private static async start(
    root: string,
    options: ContentStoreOptions,
    fs: FsLayer,
  ): Promise<ContentStore> {
    const store = new ContentStore(root, options, fs);
    store.caseInsensitive = await isCaseInsensitive(fs, root);
    store.window.device = (await fs.lstat(root)).dev;
    try {
      // No `.repa/` yet: nothing to load or recover, and nothing is created before it is needed.
      if (await store.space.repaDirExists()) {
        await store.tenure.locked(async () => {
          // A record a killed writer left in the slot joins the records recovery resolves.
          await store.tenure.openSlot(false);
          await store.recovery.run(store.report);
        });
      }
    } catch (error) {
      // An unsafe `.repa` is refused by every later use of it; opening only reads addresses.
      if (!(RepaError.isInstance(error) && error.code === 'space_unsafe')) throw error;
    }
    return store;
  }

  /**
   * How old (ns) a stat key's mtime must be when it is taken before it stands for the bytes read
   * with it (see {@link TimestampWindow}).
   * @internal
   */
  get timestampWindowNs(): bigint {
    return this.window.ns;
  }

  /**
   * The window for a file on `device` (the first field of its stat key).
   * @internal
   */
  timestampWindowOn(device: string): bigint {
    return this.window.on(device);
  }

  /**
   * `key` (a stat key) when its mtime is old enough to stand for the bytes read with it at
   * `takenAt`, else `undefined` (see {@link TimestampWindow.settledKey}).
   * @internal
   */
  settledKey(key: string | undefined, takenAt: number): string | undefined {
    return this.window.settledKey(key, takenAt);
  }

  /**
   * Probes the file system's timestamp step once per device and process.
   * @internal
   */
  probeTimestampWindow(): Promise<void> {
    return this.window.probe();
  }

  /** What opening the store did with the intent records it found, in record order. */
  get recovered(): readonly RecoveredSave[] {
    return this.report;
  }

  /** Where `address` (a path relative to the space root, or a `repa:` identity) points. */
  async locate(address: string): Promise<ContentLocation> {
    const parsed = parseIdentity(address);
    // Another process may have assigned or moved the identity: reread a changed index first.
    if (parsed?.kind === 'document') await this.tenure.exclusive(() => this.identities.reload());
    return this.space.resolve(address, this.identities);
  }

  /**
   * Where `address` points when a save may change it; `protected_path` for a protected place
   * (design R69) and `path_outside_space` for an outside material. Every tool that saves asks this
   * before it plans, and every save again under the lock.
   */
  async locateForSave(address: string): Promise<ContentLocation> {
    return this.space.refuseUnsaveable(address, await this.locate(address));
  }

  /** Reads the whole object at `address` once (holding the space shared) with its version. */
  read(address: string): Promise<ContentSnapshot> {
    return holdSpace(this.root, 'shared', async () => {
      const location = await this.locate(address);
      const { bytes, statKey, version, readAt } = await this.space.readStable(location);
      const identity =
        location.identity ??
        (await this.tenure.locked(() => this.identities.assign(location.target)));
      // Once per file system: how soon the stat key of these bytes can be trusted (see observer).
      await this.probeTimestampWindow();
      if (!location.outside) this.rememberRead(location.target, statKey, version, readAt);
      return { ...location, identity, bytes, statKey, version, readAt };
    });
  }

  /**
   * A look-up of the identities the space's index holds now (reread first when another process
   * changed it). Contract: read-only; it never assigns an identity or writes.
   * @internal
   */
  async identityLookup(): Promise<(target: string) => string | undefined> {
    await this.tenure.exclusive(() => this.identities.reload());
    return (target) => this.identities.identityOf(target);
  }

  /**
   * Saves `changes` atomically: all are checked against their expected versions first; any failure
   * changes nothing. Returns one receipt per change, in order (spec R65).
   */
  async save(changes: readonly SaveChange[], options: SaveOptions = {}): Promise<SaveReceipt[]> {
    if (options.signal?.aborted) throw cancelled();
    const operationId = options.operationId ?? randomUUID();
    if (!OPERATION_ID.test(operationId)) {
      throw new RepaError(
        'invalid_request',
        `The operation id ${JSON.stringify(operationId)} is not allowed.`,
        {
          fix: 'Use 1–100 letters, digits, "-" or "_".',
        },
      );
    }
    if (changes.length === 0) {
      throw new RepaError('invalid_request', 'The save has no changes.', {
        fix: 'Pass at least one change.',
      });
    }
    return this.tenure.locked(async (lock) => {
      if (options.signal?.aborted) throw cancelled();
      // A record a killed writer left in the slot is moved out before anything else.
      const slot = this.tenure.slot ?? (await this.tenure.openSlot(false));
      // A generated id is a new UUID: no record can have it.
      if (
        options.operationId !== undefined &&
        (await exists(this.space.fs, this.space.intentPath(operationId)))
      ) {
        throw new RepaError(
          'invalid_request',
          `The operation id ${operationId} already has a record in this space.`,
          { fix: 'Use a new operation id.' },
        );
      }
      const plan = await planSave(
        this.space,
        this.identities,
        this.caseInsensitive,
        changes,
        operationId,
        (key, readAt) => this.settledKey(key, readAt),
        // The common edit: one change against what this store just read.
        changes.length === 1 ? (target) => this.settledReads.get(target) : undefined,
      );
      return this.committer.commit(plan, operationId, lock, {
        open: async () => slot ?? (await this.tenure.openSlot(true)),
        forget: () => this.tenure.closeSlot(),
      });
    });
  }

  /** Remembers a read whose stat key was settled when it was taken (see {@link settledReads}). */
  private rememberRead(target: string, statKey: string, version: string, readAt: number): void {
    this.settledReads.delete(target);
    if (this.settledKey(statKey, readAt) === undefined) return;
    this.settledReads.set(target, { statKey, version });
    if (this.settledReads.size > REMEMBERED_READS) {
      this.settledReads.delete(this.settledReads.keys().next().value as string);
    }
  }

  /** The saves a crash left unfinished and the records recovery quarantined (see README, "Recovery"). */
  async listRecoverable(): Promise<RecoverableIntent[]> {
    return this.recovery.list();
  }

  /** Deletes the record of a recoverable or quarantined save (after the user has dealt with it). */
  async discardRecoverable(operationId: string): Promise<void> {
    await this.tenure.locked(() => this.recovery.discard(operationId));
  }

  /**
   * Runs `task` under the space's lock, like a save (kept history's pruning and records).
   * @internal
   */
  underLock<T>(task: () => Promise<T>): Promise<T> {
    return this.tenure.locked(() => task());
  }
}
