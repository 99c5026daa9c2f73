import { randomUUID } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { RepaError, type SaveReceipt } from '@repa/protocol';
import { lock } from 'proper-lockfile';
import { isCaseInsensitive, refuseCaseClash, refuseCaseTwins } from './case-names.js';
import { newIdentity, parseIdentity } from './content-address.js';
import { excerptOf, versionOf } from './content-bytes.js';
import {
  CREATE_EXCLUSIVE,
  errnoCode,
  type FsLayer,
  nodeFsLayer,
  READ_FOLLOW,
  READ_NO_FOLLOW,
} from './fs-layer.js';
import { IdentityIndex } from './identity-index.js';
import { type IntentChange, type IntentRecord, intentRecordSchema } from './intent-record.js';
import { grantedMaterialPath } from './outside-grants.js';
import { dataCorrupt, isSocketOpenError, notRegularFile, readDataFile } from './regular-file.js';
import { isProtectedName, parseSpacePath, REPA_FOLDER } from './space-path.js';

/**
 * The named steps of a save, in order; test hooks run after each.
 * @internal
 */
export type SaveStep =
  | 'planned'
  | 'intent-written'
  | 'temp-written'
  | 'checked'
  | 'renamed'
  | 'dirs-synced'
  | 'index-written'
  | 'done';

/**
 * Test hooks: `step` runs after each named save step and may pause, change the disk or kill the
 * process.
 * @internal
 */
export interface ContentStoreHooks {
  step?(step: SaveStep, info: { operationId: string; index?: number }): void | Promise<void>;
}

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

/** Where an address points, without reading the object. */
export interface ContentLocation {
  /** Path relative to the space root (`/`-separated, symlinks resolved); for an outside material its absolute path. */
  target: string;
  /** Absolute path on disk. */
  absolutePath: string;
  /** True for an outside material reached through a grant (read-only, never tracked). */
  outside: boolean;
  /** The object's identity, when it has one already. */
  identity?: string;
}

/** The one snapshot a read returns: bytes and the version they have. */
export interface ContentSnapshot extends ContentLocation {
  /** The object's identity (assigned on first read). */
  identity: string;
  /** sha256 hex of `bytes`. */
  version: string;
  /** The whole file. */
  bytes: Buffer;
  /**
   * Cheap change key (device, inode, size, mtime) of the file the bytes came from.
   * @internal
   */
  statKey: string;
}

/** One object a save changes. */
export interface SaveChange {
  /** Path relative to the space root, or a `repa:` identity. */
  target: string;
  /** The new bytes; `null` deletes the object. */
  content: Uint8Array | null;
  /**
   * The version the caller observed (sha256 hex), or `null` when the object must not exist yet.
   * A mismatch fails the whole save with `stale_version`; an unexpected existing object with
   * `read_required`.
   */
  expectedVersion: string | null;
  /** For a move: the path (or identity) whose identity passes to `target`. */
  identityFrom?: string;
}

/** Options of {@link ContentStore.save}. */
export interface SaveOptions {
  /** The operation id (letters, digits, `-`, `_`); generated when absent. */
  operationId?: string;
  /** Checked once before the save starts; a save that has begun always finishes. */
  signal?: AbortSignal;
}

/**
 * A save that recovery could not finish, or a record it refused to trust (`quarantined`); the
 * record stays in `.repa/intents/` until discarded.
 */
export interface RecoverableIntent {
  /** The save's operation id (for a quarantined record: its file name without `.json`). */
  operationId: string;
  /** `recoverable`: nothing of it was lost; `quarantined`: the record is damaged or unsafe and was not acted on. */
  status: 'recoverable' | 'quarantined';
  /** When the save started (ISO-8601; empty when the record is unreadable). */
  createdAt: string;
  /** Absolute path of the record, which also holds the new bytes (base64). */
  recordPath: string;
  /** Why it was left unfinished or quarantined. */
  reason: string;
  /** Each change and whether it is on disk. */
  changes: {
    target: string;
    previousVersion: string | null;
    version: string | null;
    applied: boolean;
  }[];
}

/** What opening the store did with one intent record it found (see README, "Recovery"). */
export interface RecoveredSave {
  /** The save's operation id (for a quarantined record: its file name without `.json`). */
  operationId: string;
  /**
   * `rolled-forward`: the save is complete on disk now; `recoverable`: kept for a person to look at
   * (see `listRecoverable`); `quarantined`: the record is damaged or unsafe, nothing was done.
   */
  outcome: 'rolled-forward' | 'recoverable' | 'quarantined';
  /** The changes of the save that are on disk now. */
  receipts: SaveReceipt[];
  /** Why it ended this way. */
  reason: string;
}

interface PlannedChange {
  target: string;
  absolutePath: string;
  identity: string;
  identityFrom?: string;
  previousVersion: string | null;
  version: string | null;
  content: Buffer | null;
  temp: string | null;
  mode: number | null;
  createdDirs: string[];
}

const OPERATION_ID = /^[A-Za-z0-9_-]{1,100}$/u;
const INTENTS = 'intents';
const INDEX_FILE = 'identities.json';
const TEMP_MARK = '.repa-tmp-';
/** The cross-process lock of a space's saves and records: `.repa/content.lock` (proper-lockfile). */
const LOCK_NAME = 'content';
/** A lock whose holder stopped refreshing it this long ago (e.g. a killed process) is taken over. */
const LOCK_STALE_MS = 5_000;
/** How long to keep retrying a held lock (about 20 s in total) before `busy`. */
const LOCK_RETRIES = { retries: 400, factor: 1.2, minTimeout: 2, maxTimeout: 50, randomize: true };
/** Errors of a folder fsync on file systems that do not support it; the rename itself is done. */
const DIR_SYNC_REFUSED = new Set(['EINVAL', 'EPERM', 'EISDIR', 'EBADF', 'ENOTSUP', 'EOPNOTSUPP']);
/** The live stores of this process, one per real space root and app directory. */
const sharedStores = new Map<string, Promise<ContentStore>>();

const statKeyOf = (stats: BigIntStats) =>
  `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;

const toPosix = (path: string) => path.split(sep).join('/');

/** The temp file a save writes for change `position` of `operationId`, beside its target. */
const tempPathOf = (absolutePath: string, operationId: string, position: number) =>
  join(
    dirname(absolutePath),
    `.${basename(absolutePath).slice(0, 80)}${TEMP_MARK}${operationId}-${position}`,
  );

function ioError(error: unknown, what: string): RepaError {
  if (RepaError.isInstance(error)) return error;
  const code = errnoCode(error);
  return new RepaError('io_error', `${what} failed${code ? ` (${code})` : ''}: ${String(error)}`, {
    cause: error,
    details: code ? { errno: code } : undefined,
  });
}

function spaceUnsafe(path: string): RepaError {
  return new RepaError('space_unsafe', `${path} is not a plain folder (e.g. it is a symlink).`, {
    details: { path },
  });
}

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
  private readonly givenRoot: string;
  private readonly appDirectory: string | undefined;
  private readonly fs: FsLayer;
  private readonly hooks: ContentStoreHooks;
  private index = new IdentityIndex();
  /** Whether the space's disk takes names differing only by case for one (probed at open). */
  private caseInsensitive = false;
  /** Index changes not yet written to disk; replayed when the index is reloaded. */
  private unsaved: ((index: IdentityIndex) => boolean)[] = [];
  /** Stat key of `identities.json` when last read or written (`null`: absent; `undefined`: never read). */
  private indexKey: string | null | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private report: RecoveredSave[] = [];

  private constructor(root: string, options: ContentStoreOptions, fs: FsLayer) {
    this.root = root;
    this.givenRoot = options.root;
    this.appDirectory = options.appDirectory;
    this.fs = fs;
    this.hooks = options.hooks ?? {};
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
      if (await store.repaDirExists()) await store.locked(() => store.recover());
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
    if (parsed?.kind === 'document') await this.exclusive(() => this.refreshIndex());
    return this.resolveAddress(address);
  }

  private async resolveAddress(address: string): Promise<ContentLocation> {
    const parsed = parseIdentity(address);
    if (parsed === undefined) {
      const location = await this.canonical(parseSpacePath(address));
      const identity = this.index.identityOf(location.target);
      return identity === undefined ? location : { ...location, identity };
    }
    const path = this.index.pathOf(parsed.identity);
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
      if (outside !== undefined) {
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

  /** Reads the whole object at `address` once and returns that snapshot with its version. */
  async read(address: string): Promise<ContentSnapshot> {
    const location = await this.locate(address);
    const { bytes, statKey } = await this.readFile(location);
    const identity = location.identity ?? (await this.assignIdentity(location.target));
    return { ...location, identity, bytes, statKey, version: versionOf(bytes) };
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
    return this.locked(async () => {
      if (options.signal?.aborted) throw cancelled();
      if (await this.exists(this.intentPath(operationId))) {
        throw new RepaError(
          'invalid_request',
          `The operation id ${operationId} already has a record in this space.`,
          { fix: 'Use a new operation id.' },
        );
      }
      const plan = await this.plan(changes, operationId);
      return this.commit(plan, operationId);
    });
  }

  /** The saves a crash left unfinished and the records recovery quarantined (see README, "Recovery"). */
  async listRecoverable(): Promise<RecoverableIntent[]> {
    const result: RecoverableIntent[] = [];
    for (const { record, path, name, problem } of await this.readIntents()) {
      if (problem === undefined && record?.status !== 'recoverable') continue;
      result.push({
        operationId: name,
        status: problem === undefined ? 'recoverable' : 'quarantined',
        createdAt: record?.createdAt ?? '',
        recordPath: path,
        reason: problem ?? record?.reason ?? 'The save did not reach disk.',
        changes: (record?.changes ?? []).map((change) => ({
          target: change.target,
          previousVersion: change.previousVersion,
          version: change.version,
          applied: change.applied ?? false,
        })),
      });
    }
    return result;
  }

  /** Deletes the record of a recoverable or quarantined save (after the user has dealt with it). */
  async discardRecoverable(operationId: string): Promise<void> {
    await this.locked(async () => {
      const found = (await this.readIntents()).find(
        ({ record, name, problem }) =>
          name === operationId && (problem !== undefined || record?.status === 'recoverable'),
      );
      if (!found) {
        throw new RepaError(
          'not_found',
          `No recoverable save has the operation id ${operationId}.`,
        );
      }
      await this.fs.unlink(found.path);
    });
  }

  /**
   * The cheap change key of a space object, or `null` when it is gone.
   * @internal
   */
  async statKeyOf(target: string): Promise<string | null> {
    try {
      const stats = await this.fs.lstat(join(this.root, target));
      return stats.isFile() ? statKeyOf(stats) : null;
    } catch (error) {
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return null;
      throw ioError(error, `Checking ${target}`);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Addressing

  private isInside(path: string): boolean {
    return path === this.root || path.startsWith(this.root + sep);
  }

  /** Resolves every symlink of a checked relative path and verifies it stays in the space. */
  private async canonical(path: string): Promise<ContentLocation> {
    const parts = path.split('/');
    let current = this.root;
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
    return { target, absolutePath: current, outside: false };
  }

  private async readFile(location: ContentLocation): Promise<{ bytes: Buffer; statKey: string }> {
    const shown = JSON.stringify(location.outside ? location.identity : location.target);
    let handle: Awaited<ReturnType<FsLayer['open']>>;
    try {
      handle = await this.fs.open(
        location.absolutePath,
        location.outside ? READ_FOLLOW : READ_NO_FOLLOW,
      );
    } catch (error) {
      const code = errnoCode(error);
      if (isSocketOpenError(error)) throw notRegularFile(shown);
      if (code === 'ENOENT' || code === 'ENOTDIR') {
        throw new RepaError('not_found', `There is no file at ${shown}.`);
      }
      if (code === 'ELOOP') {
        throw new RepaError('path_outside_space', `${shown} changed into a symlink while reading.`);
      }
      throw ioError(error, `Reading ${shown}`);
    }
    try {
      for (let attempt = 0; ; attempt++) {
        const before = await this.fs.fstat(handle);
        if (before.isDirectory()) {
          throw new RepaError('invalid_request', `${shown} is a folder, not a file.`, {
            fix: 'Name a file inside the folder.',
          });
        }
        // Checked before reading: a FIFO or device opened without blocking is never read.
        if (!before.isFile()) throw notRegularFile(shown, before);
        const bytes = await this.fs.read(handle);
        const after = await this.fs.fstat(handle);
        // Contract: the version always belongs to the stat key it is stored with.
        if (statKeyOf(before) === statKeyOf(after) && BigInt(bytes.length) === after.size) {
          return { bytes, statKey: statKeyOf(after) };
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

  private async currentVersion(
    absolutePath: string,
    target: string,
  ): Promise<{ version: string; bytes: Buffer; mode: number } | null> {
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
    const { bytes } = await this.readFile({ target, absolutePath, outside: false });
    return { version: versionOf(bytes), bytes, mode: Number(stats.mode & 0o7777n) };
  }

  // ---------------------------------------------------------------------------------------------
  // Identities

  private get repaDir() {
    return join(this.root, REPA_FOLDER);
  }

  /** Rereads `identities.json` when another store or process replaced it; keeps unsaved changes. */
  private async refreshIndex(): Promise<void> {
    const file = join(this.repaDir, INDEX_FILE);
    // Never read an index through a `.repa` that is not a real folder (space_unsafe).
    if (!(await this.repaDirExists())) return;
    const stats = await this.fs.lstat(file).then(
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
    const bytes = key === null ? undefined : await readDataFile(this.fs, file, 'identity index');
    if (bytes !== undefined) index = IdentityIndex.parse(bytes.toString('utf8'), file);
    for (const change of this.unsaved) change(index);
    this.index = index;
    this.indexKey = key;
  }

  private async persistIndex(): Promise<void> {
    const file = join(this.repaDir, INDEX_FILE);
    const written = this.unsaved.length;
    await this.writeRepaFile(file, this.index.serialize());
    this.unsaved.splice(0, written);
    this.indexKey = await this.fs.lstat(file).then(
      (stats) => statKeyOf(stats),
      () => undefined,
    );
  }

  /** Applies an index change now and keeps it until it is on disk. */
  private changeIndex(change: (index: IdentityIndex) => boolean): void {
    if (change(this.index)) this.unsaved.push(change);
  }

  private async assignIdentity(target: string): Promise<string> {
    return this.locked(async () => {
      const existing = this.index.identityOf(target);
      if (existing !== undefined) return existing;
      const identity = newIdentity();
      // Replayed onto a reloaded index only if nobody gave the path an identity meanwhile.
      this.changeIndex(
        (index) => index.identityOf(target) === undefined && index.set(identity, target),
      );
      await this.persistIndex();
      return identity;
    });
  }

  /**
   * Applies the identity changes of saved changes to the index (deletes first, then moves and new
   * objects); marks the index dirty when anything changed.
   */
  private applyIdentities(
    changes: readonly Pick<PlannedChange, 'target' | 'identity' | 'content' | 'version'>[],
  ): void {
    const kept = new Set(
      changes.filter((change) => change.version !== null).map((change) => change.identity),
    );
    for (const change of changes) {
      if (change.version !== null) continue;
      this.changeIndex((index) => {
        const identity = index.identityOf(change.target);
        return identity !== undefined && !kept.has(identity) && index.remove(identity);
      });
    }
    for (const change of changes)
      if (change.version !== null)
        this.changeIndex((index) => index.set(change.identity, change.target));
  }

  // ---------------------------------------------------------------------------------------------
  // Saving

  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Runs `task` alone in this store and, across processes, under the space's lock
   * (`.repa/content.lock`): every save, identity assignment and recovery step. The identity index
   * is reread first when another process changed it.
   */
  private locked<T>(task: () => Promise<T>): Promise<T> {
    return this.exclusive(async () => {
      await this.ensureDir(this.repaDir);
      const release = await this.acquireLock();
      try {
        // Checked again under the lock: `.repa` may have been swapped meanwhile.
        await this.ensureDir(this.repaDir);
        await this.refreshIndex();
        return await task();
      } finally {
        await release().catch(() => undefined);
      }
    });
  }

  private async acquireLock(): Promise<() => Promise<void>> {
    try {
      return await lock(join(this.repaDir, LOCK_NAME), {
        realpath: false,
        stale: LOCK_STALE_MS,
        retries: LOCK_RETRIES,
        // The default throws from a timer and crashes the process; a save takes far less than
        // `stale`, and its checks do not rely on the lock alone (versions are re-checked).
        onCompromised: () => {},
      });
    } catch (error) {
      if (errnoCode(error) === 'ELOCKED') {
        throw new RepaError('busy', 'Another Repa process kept this space locked for saving.', {
          fix: `Retry shortly. If no Repa process is running, remove the folder ${join(this.repaDir, `${LOCK_NAME}.lock`)}.`,
          cause: error,
        });
      }
      throw ioError(error, 'Locking the space');
    }
  }

  private async step(step: SaveStep, operationId: string, index?: number): Promise<void> {
    await this.hooks.step?.(step, index === undefined ? { operationId } : { operationId, index });
  }

  private async plan(
    changes: readonly SaveChange[],
    operationId: string,
  ): Promise<PlannedChange[]> {
    const locations: ContentLocation[] = [];
    for (const change of changes) {
      const location = await this.resolveAddress(change.target);
      if (location.outside) {
        throw new RepaError(
          'path_outside_space',
          `${change.target} is an outside material; outside materials are read-only.`,
          {
            fix: 'Save a copy inside the space instead.',
          },
        );
      }
      if (locations.some((other) => other.target === location.target)) {
        throw new RepaError(
          'invalid_request',
          `The save changes ${JSON.stringify(location.target)} twice.`,
          {
            fix: 'Combine the changes to one object into one.',
          },
        );
      }
      locations.push(location);
    }
    refuseCaseTwins(locations.map((location) => location.target));
    if (this.caseInsensitive) {
      for (const { target } of locations) await refuseCaseClash(this.fs, this.root, target);
    }
    // Identities: a moved object keeps its own; an object without one gets a new one here, so the
    // receipts of both ends of a move name the same identity.
    const identities = new Map(
      locations.map((location) => [location.target, location.identity ?? newIdentity()]),
    );
    const plan: PlannedChange[] = [];
    for (const [position, change] of changes.entries()) {
      const { target, absolutePath } = locations[position] as ContentLocation;
      const current = await this.currentVersion(absolutePath, target);
      this.checkExpectation(target, change.expectedVersion, current);
      let identity = identities.get(target) as string;
      if (change.content !== null && change.identityFrom !== undefined) {
        const from = await this.resolveAddress(change.identityFrom);
        identity = from.identity ?? identities.get(from.target) ?? identity;
      }
      const content = change.content === null ? null : Buffer.from(change.content);
      const temp = content === null ? null : tempPathOf(absolutePath, operationId, position);
      plan.push({
        target,
        absolutePath,
        identity,
        ...(change.identityFrom === undefined ? {} : { identityFrom: change.identityFrom }),
        previousVersion: current?.version ?? null,
        version: content === null ? null : versionOf(content),
        content,
        temp,
        mode: current === null ? null : current.mode & 0o777,
        createdDirs: content === null ? [] : await this.missingDirs(dirname(absolutePath)),
      });
    }
    return plan;
  }

  private checkExpectation(
    target: string,
    expected: string | null,
    current: { version: string; bytes: Buffer } | null,
  ): void {
    const shown = JSON.stringify(target);
    if (expected === null && current !== null) {
      throw new RepaError(
        'read_required',
        `${shown} already exists and this host has not read it.`,
        {
          details: { target, currentVersion: current.version, excerpt: excerptOf(current.bytes) },
        },
      );
    }
    if (expected !== null && current === null) {
      throw new RepaError('stale_version', `${shown} was deleted since it was read.`, {
        fix: 'Check whether the file should still exist; create it again only if it should.',
        details: { target, expectedVersion: expected, currentVersion: null },
      });
    }
    if (expected !== null && current !== null && current.version !== expected) {
      throw new RepaError('stale_version', `${shown} changed since it was read.`, {
        details: {
          target,
          expectedVersion: expected,
          currentVersion: current.version,
          excerpt: excerptOf(current.bytes),
        },
      });
    }
  }

  private async missingDirs(dir: string): Promise<string[]> {
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

  private rel(path: string): string {
    return toPosix(relative(this.root, path));
  }

  private toRecord(plan: readonly PlannedChange[], operationId: string): IntentRecord {
    return {
      format: 'repa.content-intent/1',
      operationId,
      createdAt: new Date().toISOString(),
      status: 'pending',
      changes: plan.map((change) => ({
        target: change.target,
        identity: change.identity,
        ...(change.identityFrom === undefined ? {} : { identityFrom: change.identityFrom }),
        previousVersion: change.previousVersion,
        version: change.version,
        content: change.content === null ? null : change.content.toString('base64'),
        temp: change.temp === null ? null : this.rel(change.temp),
        mode: change.mode,
        createdDirs: change.createdDirs.map((dir) => this.rel(dir)),
      })),
    };
  }

  private intentPath(operationId: string): string {
    return join(this.repaDir, INTENTS, `${operationId}.json`);
  }

  private async commit(plan: PlannedChange[], operationId: string): Promise<SaveReceipt[]> {
    await this.step('planned', operationId);
    const record = this.toRecord(plan, operationId);
    const recordPath = this.intentPath(operationId);
    try {
      await this.ensureDir(this.repaDir);
      await this.ensureDir(join(this.repaDir, INTENTS));
      await this.writeRepaFile(recordPath, JSON.stringify(record));
    } catch (error) {
      await this.fs.unlink(recordPath).catch(() => undefined);
      throw ioError(error, 'Writing the intent record');
    }
    await this.step('intent-written', operationId);
    const created: string[] = [];
    try {
      for (const change of plan) {
        for (const dir of change.createdDirs) {
          if (created.includes(dir)) continue;
          await this.expectRealDir(dirname(dir));
          await this.fs.mkdir(dir);
          created.push(dir);
        }
        if (change.content !== null && change.temp !== null) {
          await this.writeNewFile(change.temp, change.content, change.mode);
        }
      }
      await this.step('temp-written', operationId);
      await this.recheck(plan);
      await this.step('checked', operationId);
    } catch (error) {
      await this.rollback(plan, created, recordPath);
      throw ioError(error, 'Preparing the save');
    }
    // Commit point: from the first rename on, recovery rolls the save forward.
    const applied: PlannedChange[] = [];
    try {
      for (const [index, change] of plan.entries()) {
        if (change.temp !== null) await this.fs.rename(change.temp, change.absolutePath);
        else await this.fs.unlink(change.absolutePath);
        applied.push(change);
        await this.step('renamed', operationId, index);
      }
    } catch (error) {
      if (applied.length === 0) {
        await this.rollback(plan, created, recordPath);
        throw ioError(error, 'Saving');
      }
      for (const change of plan) {
        if (!applied.includes(change) && change.temp !== null)
          await this.removeTemp(change.temp, change.absolutePath);
      }
      const done = applied.map((change) => change.target);
      const pending = plan
        .filter((change) => !applied.includes(change))
        .map((change) => change.target);
      throw new RepaError(
        'io_error',
        `The save was interrupted after ${done.join(', ')} reached disk; ${pending.join(', ')} did not. The rest is completed when the space is opened again.`,
        { cause: error, details: { operationId, applied: done, pending } },
      );
    }
    // From here on the save is reported saved whatever fails: every rename is done.
    let durable = true;
    try {
      const dirs = new Set(plan.map((change) => dirname(change.absolutePath)));
      for (const dir of created) dirs.add(dirname(dir));
      for (const dir of dirs) await this.syncDir(dir);
    } catch {
      durable = false;
    }
    await this.step('dirs-synced', operationId);
    try {
      this.applyIdentities(plan);
      // An overwrite that keeps every identity (the common case) leaves the index as it is on
      // disk; a new object, a move or a delete (or an earlier failed write) rewrites it.
      if (this.unsaved.length > 0) await this.persistIndex();
    } catch {
      // The index stays dirty in memory and is written with the next change of it.
      durable = false;
    }
    await this.step('index-written', operationId);
    // Contract: a save reported saved is never replayed. The record goes; if it cannot go (or a
    // step above failed), it is rewritten as `committed`, which recovery never replays: it only
    // brings the identity index up to date for the changes still on disk.
    const removed =
      durable &&
      (await this.fs.unlink(recordPath).then(
        () => true,
        () => false,
      ));
    if (removed) {
      await this.syncDir(join(this.repaDir, INTENTS)).catch(() => undefined);
    } else {
      await this.writeRepaFile(
        recordPath,
        JSON.stringify({ ...record, status: 'committed' } satisfies IntentRecord),
      ).catch(() => undefined);
    }
    await this.step('done', operationId);
    return plan.map((change) => ({
      operationId,
      target: change.target,
      identity: change.identity,
      previousVersion: change.previousVersion,
      version: change.version,
      bytes: change.content?.length ?? 0,
    }));
  }

  private async expectRealDir(dir: string): Promise<void> {
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

  /** Right before the renames: every target is still where it was and still has the version planned. */
  private async recheck(plan: readonly PlannedChange[]): Promise<void> {
    for (const change of plan) {
      const again = await this.canonical(change.target);
      if (again.absolutePath !== change.absolutePath) {
        throw new RepaError(
          'path_outside_space',
          `${JSON.stringify(change.target)} was moved while saving.`,
        );
      }
      await this.expectRealDir(dirname(change.absolutePath));
      const current = await this.currentVersion(change.absolutePath, change.target);
      this.checkExpectation(change.target, change.previousVersion, current);
    }
  }

  private async writeNewFile(path: string, bytes: Uint8Array, mode: number | null): Promise<void> {
    const handle = await this.fs.open(path, CREATE_EXCLUSIVE, 0o666);
    try {
      await this.fs.write(handle, bytes);
      if (mode !== null) await this.fs.chmod(handle, mode);
      await this.fs.sync(handle);
    } finally {
      await this.fs.close(handle).catch(() => undefined);
    }
  }

  /** Removes a temp file, but only from the folder it was planned in (never through a swapped symlink). */
  private async removeTemp(temp: string, target: string): Promise<boolean> {
    try {
      if ((await this.fs.realpath(dirname(temp))) !== dirname(target)) return false;
      await this.fs.unlink(temp);
      return true;
    } catch (error) {
      return errnoCode(error) === 'ENOENT';
    }
  }

  private async rollback(
    plan: readonly PlannedChange[],
    created: readonly string[],
    recordPath: string,
  ): Promise<void> {
    let clean = true;
    for (const change of plan) {
      if (change.temp !== null && !(await this.removeTemp(change.temp, change.absolutePath)))
        clean = false;
    }
    for (const dir of [...created].reverse()) await this.fs.rmdir(dir).catch(() => undefined);
    // A temp file that could not be removed stays listed in its intent; recovery removes it later.
    if (clean) await this.fs.unlink(recordPath).catch(() => undefined);
  }

  /** Creates `dir` (one of `.repa/` and its folders) if missing; it must be a real folder. */
  private async ensureDir(dir: string): Promise<void> {
    if (await this.realDirExists(dir)) return;
    try {
      await this.fs.mkdir(dir);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
    }
    if (!(await this.realDirExists(dir))) throw spaceUnsafe(dir);
  }

  /** Whether `dir` exists; throws `space_unsafe` when it is anything but a real folder (`lstat`). */
  private async realDirExists(dir: string): Promise<boolean> {
    let stats: BigIntStats;
    try {
      stats = await this.fs.lstat(dir);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return false;
      throw ioError(error, `Checking ${dir}`);
    }
    if (!stats.isDirectory()) throw spaceUnsafe(dir);
    return true;
  }

  private async repaDirExists(): Promise<boolean> {
    return this.realDirExists(this.repaDir);
  }

  private async exists(path: string): Promise<boolean> {
    try {
      await this.fs.lstat(path);
      return true;
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return false;
      throw ioError(error, `Checking ${path}`);
    }
  }

  /** Atomically replaces one of Repa's own files in `.repa/` (temp file, fsync, rename, fsync dir). */
  private async writeRepaFile(path: string, text: string): Promise<void> {
    await this.ensureDir(this.repaDir);
    if (dirname(path) !== this.repaDir) await this.ensureDir(dirname(path));
    const temp = `${path}${TEMP_MARK}${randomUUID()}`;
    try {
      await this.writeNewFile(temp, Buffer.from(text, 'utf8'), null);
      await this.fs.rename(temp, path);
    } catch (error) {
      await this.fs.unlink(temp).catch(() => undefined);
      throw error;
    }
    await this.syncDir(dirname(path));
  }

  /** Flushes a folder's entries; skipped where the file system refuses folder fsync (see README). */
  private async syncDir(path: string): Promise<void> {
    try {
      await this.fs.syncDir(path);
    } catch (error) {
      if (!DIR_SYNC_REFUSED.has(errnoCode(error) ?? '')) throw error;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Recovery

  /**
   * Every record in `.repa/intents/`, checked: `problem` says why a record is not trusted
   * (unreadable, or a path, temp, folder or mode the store itself would never have written).
   */
  private async readIntents(): Promise<
    { name: string; path: string; record?: IntentRecord; problem?: string }[]
  > {
    const dir = join(this.repaDir, INTENTS);
    if (!(await this.repaDirExists()) || !(await this.realDirExists(dir))) return [];
    let names: string[];
    try {
      names = await this.fs.readdir(dir);
    } catch (error) {
      throw ioError(error, `Listing ${dir}`);
    }
    const records: { name: string; path: string; record?: IntentRecord; problem?: string }[] = [];
    for (const file of names.sort()) {
      if (!file.endsWith('.json') || file.includes(TEMP_MARK)) continue;
      const name = file.slice(0, -'.json'.length);
      const path = join(dir, file);
      let record: IntentRecord;
      try {
        if (!(await this.fs.lstat(path)).isFile()) {
          records.push({ name, path, problem: 'The record is not a plain file.' });
          continue;
        }
        record = intentRecordSchema.parse(
          JSON.parse((await this.fs.readFile(path)).toString('utf8')),
        );
      } catch {
        // A damaged record is quarantined: kept for a person to inspect, never guessed at.
        records.push({
          name,
          path,
          problem: 'The record is damaged (torn or not a Repa intent record).',
        });
        continue;
      }
      const problem = await this.problemOf(record, name);
      records.push(
        problem === undefined ? { name, path, record } : { name, path, record, problem },
      );
    }
    return records;
  }

  /** Why a record cannot be trusted, or `undefined`: every path passes the rules of a tool call. */
  private async problemOf(record: IntentRecord, name: string): Promise<string | undefined> {
    if (!OPERATION_ID.test(record.operationId) || record.operationId !== name) {
      return 'The operation id does not match the record file name.';
    }
    if (record.changes.length === 0) return 'The record has no changes.';
    const targets = new Set<string>();
    for (const [position, change] of record.changes.entries()) {
      const shown = JSON.stringify(change.target);
      let location: ContentLocation;
      try {
        if (parseSpacePath(change.target) !== change.target) throw new Error('not canonical');
        location = await this.canonical(change.target);
      } catch {
        return `The target ${shown} is not a safe path inside the space.`;
      }
      if (location.target !== change.target) return `The target ${shown} goes through a symlink.`;
      if (targets.has(change.target)) return `The target ${shown} appears twice.`;
      targets.add(change.target);
      const temp =
        change.version === null
          ? null
          : this.rel(tempPathOf(location.absolutePath, record.operationId, position));
      if (change.temp !== temp) {
        return `The temp file ${JSON.stringify(change.temp)} is not the one this save uses for ${shown}.`;
      }
      if ((change.content === null) !== (change.version === null)) {
        return `The change of ${shown} has bytes and version out of step.`;
      }
      if (
        change.content !== null &&
        versionOf(Buffer.from(change.content, 'base64')) !== change.version
      ) {
        return `The saved bytes of ${shown} do not have the recorded version.`;
      }
      if (change.mode !== null && (change.mode < 0 || (change.mode & ~0o777) !== 0)) {
        return `The mode of ${shown} is not plain permission bits.`;
      }
      if (parseIdentity(change.identity)?.kind !== 'document') {
        return `The identity of ${shown} is not a repa:document identity.`;
      }
      if (change.version === null && change.createdDirs.length > 0) {
        return `The delete of ${shown} lists created folders.`;
      }
      for (const dir of change.createdDirs) {
        try {
          if (
            parseSpacePath(dir) !== dir ||
            !change.target.startsWith(`${dir}/`) ||
            (await this.canonical(dir)).target !== dir
          ) {
            throw new Error('not an ancestor');
          }
        } catch {
          return `The folder ${JSON.stringify(dir)} is not a folder of ${shown} inside the space.`;
        }
      }
    }
    return undefined;
  }

  private async removeStrayRepaTemps(): Promise<void> {
    for (const dir of [this.repaDir, join(this.repaDir, INTENTS)]) {
      let names: string[];
      try {
        if (!(await this.realDirExists(dir))) continue;
        names = await this.fs.readdir(dir);
      } catch {
        continue;
      }
      for (const name of names) {
        if (name.includes(TEMP_MARK)) await this.fs.unlink(join(dir, name)).catch(() => undefined);
      }
    }
  }

  /** Runs under the lock: no save of any process is in flight, so every record is a dead writer's. */
  private async recover(): Promise<void> {
    await this.removeStrayRepaTemps();
    for (const { name, path, record, problem } of await this.readIntents()) {
      if (problem !== undefined || record === undefined) {
        this.report.push({
          operationId: name,
          outcome: 'quarantined',
          receipts: [],
          reason: problem ?? 'The record is damaged.',
        });
      } else if (record.status === 'pending') {
        this.report.push(await this.resolveIntent(record, path));
      } else if (record.status === 'committed') {
        this.report.push(await this.finishCommitted(record, path));
      }
    }
  }

  private async changeState(change: IntentChange): Promise<'applied' | 'base' | 'other'> {
    try {
      const location = await this.canonical(change.target);
      const current = await this.currentVersion(location.absolutePath, change.target);
      const version = current?.version ?? null;
      if (version === change.version) return 'applied';
      if (version === change.previousVersion) return 'base';
      return 'other';
    } catch {
      return 'other';
    }
  }

  private toPlanned(change: IntentChange): PlannedChange {
    return {
      target: change.target,
      absolutePath: join(this.root, change.target),
      identity: change.identity,
      previousVersion: change.previousVersion,
      version: change.version,
      content: change.content === null ? null : Buffer.from(change.content, 'base64'),
      temp: change.temp === null ? null : join(this.root, change.temp),
      mode: change.mode,
      createdDirs: change.createdDirs.map((dir) => join(this.root, dir)),
    };
  }

  private receiptsOf(operationId: string, changes: readonly PlannedChange[]): SaveReceipt[] {
    return changes.map((change) => ({
      operationId,
      target: change.target,
      identity: change.identity,
      previousVersion: change.previousVersion,
      version: change.version,
      bytes: change.content?.length ?? 0,
    }));
  }

  /** A save reported saved whose clean-up failed: only its identities are finished, nothing is replayed. */
  private async finishCommitted(record: IntentRecord, recordPath: string): Promise<RecoveredSave> {
    const states = await Promise.all(record.changes.map((change) => this.changeState(change)));
    const planned = record.changes.map((change) => this.toPlanned(change));
    for (const change of planned) {
      if (change.temp !== null) await this.removeTemp(change.temp, change.absolutePath);
    }
    const onDisk = planned.filter((_, index) => states[index] === 'applied');
    this.applyIdentities(onDisk);
    if (this.unsaved.length > 0) await this.persistIndex();
    await this.fs.unlink(recordPath);
    await this.syncDir(dirname(recordPath));
    return {
      operationId: record.operationId,
      outcome: 'rolled-forward',
      receipts: this.receiptsOf(record.operationId, onDisk),
      reason:
        'The save had been reported saved; only its identity index update was finished (nothing was written again).',
    };
  }

  private async resolveIntent(record: IntentRecord, recordPath: string): Promise<RecoveredSave> {
    const states = await Promise.all(record.changes.map((change) => this.changeState(change)));
    // Committed once any real change (not a no-op rewrite) is on disk: its rename happened.
    const committed = record.changes.some(
      (change, index) => states[index] === 'applied' && change.version !== change.previousVersion,
    );
    const planned = record.changes.map((change) => this.toPlanned(change));
    for (const [index, change] of planned.entries()) {
      if (change.temp !== null) await this.removeTemp(change.temp, change.absolutePath);
      if (!committed || states[index] !== 'base') continue;
      // Roll forward: the save had passed its commit point, and nobody touched this target since.
      try {
        if (change.content !== null && change.temp !== null) {
          await this.writeNewFile(change.temp, change.content, change.mode);
          await this.fs.rename(change.temp, change.absolutePath);
        } else {
          await this.fs.unlink(change.absolutePath);
        }
        await this.syncDir(dirname(change.absolutePath));
        states[index] = 'applied';
      } catch {
        if (change.temp !== null) await this.removeTemp(change.temp, change.absolutePath);
      }
    }
    const applied = planned.filter((_, index) => states[index] === 'applied');
    if (applied.length > 0) {
      this.applyIdentities(applied);
      await this.persistIndex();
    }
    const receipts = this.receiptsOf(record.operationId, applied);
    if (applied.length === planned.length) {
      await this.fs.unlink(recordPath);
      await this.syncDir(dirname(recordPath));
      return {
        operationId: record.operationId,
        outcome: 'rolled-forward',
        receipts,
        reason: 'The save was interrupted after its first rename; it was finished on open.',
      };
    }
    if (!committed) {
      for (const change of planned) {
        for (const dir of [...change.createdDirs].reverse())
          await this.fs.rmdir(dir).catch(() => undefined);
      }
    }
    const reason = committed
      ? 'The save was interrupted; some objects were changed by someone else before it could be finished.'
      : 'The save was interrupted before any object reached disk; the objects are unchanged.';
    const kept: IntentRecord = {
      ...record,
      status: 'recoverable',
      reason,
      changes: record.changes.map((change, index) => ({
        ...change,
        applied: states[index] === 'applied',
      })),
    };
    await this.writeRepaFile(recordPath, JSON.stringify(kept));
    return { operationId: record.operationId, outcome: 'recoverable', receipts, reason };
  }
}
