import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import { isCaseInsensitive } from './case-names.js';
import { parseIdentity } from './content-address.js';
import { IdentityLedger } from './identity-ledger.js';
import { type ContentStoreHooks, SaveCommitter } from './save-committer.js';
import { OPERATION_ID, planSave, type SaveChange } from './save-planner.js';
import { type RecoverableIntent, type RecoveredSave, SaveRecovery } from './save-recovery.js';
import { acquireSpaceLock, type SpaceLock } from './space-lock.js';
import { type ContentLocation, type ContentSnapshot, SpaceResolver } from './space-resolver.js';
import { ensureDir, exists } from './store-files.js';

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

function cancelled(): RepaError {
  return new RepaError(
    'cancelled',
    'The save was cancelled before it started; nothing was written.',
  );
}

/** The queue of an idle store: settled, and made outside any caller's async context. */
const IDLE: Promise<unknown> = Promise.resolve();
const IDLE_THEN = (): undefined => undefined;

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
  private readonly ledger: IdentityLedger;
  private readonly committer: SaveCommitter;
  private readonly recovery: SaveRecovery;
  /** Whether the space's disk takes names differing only by case for one (probed at open). */
  private caseInsensitive = false;
  private queue: Promise<unknown> = IDLE;
  private readonly report: RecoveredSave[] = [];

  private constructor(root: string, options: ContentStoreOptions, fs: FsLayer) {
    this.root = root;
    this.space = new SpaceResolver(root, options.root, options.appDirectory, fs);
    this.ledger = new IdentityLedger(this.space);
    this.committer = new SaveCommitter(this.space, this.ledger, options.hooks ?? {});
    this.recovery = new SaveRecovery(this.space, this.ledger);
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
    try {
      // No `.repa/` yet: nothing to load or recover, and nothing is created before it is needed.
      if (await store.space.repaDirExists()) {
        await store.locked(() => store.recovery.run(store.report));
      }
    } catch (error) {
      // An unsafe `.repa` is refused by every later use of it; opening only reads addresses.
      if (!(RepaError.isInstance(error) && error.code === 'space_unsafe')) throw error;
    }
    return store;
  }

  /** What opening the store did with the intent records it found, in record order. */
  get recovered(): readonly RecoveredSave[] {
    return this.report;
  }

  /** Where `address` (a path relative to the space root, or a `repa:` identity) points. */
  async locate(address: string): Promise<ContentLocation> {
    const parsed = parseIdentity(address);
    // Another process may have assigned or moved the identity: reread a changed index first.
    if (parsed?.kind === 'document') await this.exclusive(() => this.ledger.reload());
    return this.space.resolve(address, this.ledger);
  }

  /** Reads the whole object at `address` once and returns that snapshot with its version. */
  async read(address: string): Promise<ContentSnapshot> {
    const location = await this.locate(address);
    const { bytes, statKey, version } = await this.space.readStable(location);
    const identity =
      location.identity ?? (await this.locked(() => this.ledger.assign(location.target)));
    return { ...location, identity, bytes, statKey, version };
  }

  /**
   * A look-up of the identities the space's index holds now (reread first when another process
   * changed it). Contract: read-only; it never assigns an identity or writes.
   * @internal
   */
  async identityLookup(): Promise<(target: string) => string | undefined> {
    await this.exclusive(() => this.ledger.reload());
    return (target) => this.ledger.identityOf(target);
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
    return this.locked(async (lock) => {
      if (options.signal?.aborted) throw cancelled();
      if (await exists(this.space.fs, this.space.intentPath(operationId))) {
        throw new RepaError(
          'invalid_request',
          `The operation id ${operationId} already has a record in this space.`,
          { fix: 'Use a new operation id.' },
        );
      }
      const plan = await planSave(
        this.space,
        this.ledger,
        this.caseInsensitive,
        changes,
        operationId,
      );
      return this.committer.commit(plan, operationId, lock);
    });
  }

  /** The saves a crash left unfinished and the records recovery quarantined (see README, "Recovery"). */
  async listRecoverable(): Promise<RecoverableIntent[]> {
    return this.recovery.list();
  }

  /** Deletes the record of a recoverable or quarantined save (after the user has dealt with it). */
  async discardRecoverable(operationId: string): Promise<void> {
    await this.locked(() => this.recovery.discard(operationId));
  }

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    const tail = run.then(IDLE_THEN, IDLE_THEN);
    this.queue = tail;
    // An idle store keeps no promise made in a caller's async context (and what that context holds).
    void tail.then(() => {
      if (this.queue === tail) this.queue = IDLE;
    });
    return run;
  }

  /**
   * Runs `task` alone in this store and, across processes, under the space's lock
   * (`.repa/content.lock`): every save, identity assignment and recovery step. The identity index
   * is reread first when another process changed it.
   */
  private locked<T>(task: (lock: SpaceLock) => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      const { fs, repaDir } = this.space;
      await ensureDir(fs, repaDir);
      const lock = await acquireSpaceLock(repaDir);
      try {
        // Checked again under the lock: `.repa` may have been swapped meanwhile.
        await ensureDir(fs, repaDir);
        await this.ledger.reload();
        return await task(lock);
      } finally {
        await lock.release().catch(() => undefined);
      }
    });
  }
}
