import type { BigIntStats } from 'node:fs';
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  realpathSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
} from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RepaError } from '@repa/protocol';
import { lock } from 'proper-lockfile';
import { errnoCode, ioError } from './errors.js';

/** How long to keep retrying a lock another process holds (ms). */
const WAIT_MS = 20_000;
/** The first and the longest pause between two attempts (ms); each is 1.2 times the last, ±50%. */
const FIRST_PAUSE_MS = 2;
const LONGEST_PAUSE_MS = 50;
/** Flags that create a waiter's mark without following a symlink in its place. */
const MARK_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/**
 * proper-lockfile refreshes the lock folder's mtime every half stale time; older than this share of
 * the stale time means this process stalled and another may take the lock over at any moment.
 */
const STALE_MARGIN = 0.75;

/** Calls `call` now and answers `callback` on the next tick, as a callback API must. */
function answer<T>(callback: (error: unknown, result?: T) => void, call: () => T): void {
  let result: T;
  try {
    result = call();
  } catch (error) {
    process.nextTick(callback, error);
    return;
  }
  process.nextTick(callback, null, result);
}

/**
 * The file system proper-lockfile works through: its folder calls (mkdir, stat, utimes, rmdir) made
 * on the calling thread — microseconds each, against ~50 µs for a thread-pool round trip. One object
 * for the process: proper-lockfile caches the timestamp precision it probed on it.
 */
const lockFs = {
  mkdir: (path: string, callback: (error: unknown) => void) =>
    answer(callback, () => void mkdirSync(path)),
  rmdir: (path: string, callback: (error: unknown) => void) =>
    answer(callback, () => rmdirSync(path)),
  rmdirSync,
  stat: (path: string, callback: (error: unknown, stats?: ReturnType<typeof statSync>) => void) =>
    answer(callback, () => statSync(path)),
  utimes: (path: string, atime: Date, mtime: Date, callback: (error: unknown) => void) =>
    answer(callback, () => utimesSync(path, atime, mtime)),
  realpath: (path: string, callback: (error: unknown, resolved?: string) => void) =>
    answer(callback, () => realpathSync(path)),
};

/** A held cross-process lock. */
export interface FileLock {
  /**
   * Throws the `lost` error unless this process provably still holds the lock: not reported
   * compromised, its folder still the one this process made, and refreshed recently enough that
   * no other process can take it over as stale. Call right before writing.
   */
  assertHeld(): Promise<void>;
  /**
   * Releases the lock (one that another process took over is left to it) and removes a waiter's
   * mark, which a live waiter renews at its next attempt.
   */
  release(): Promise<void>;
  /**
   * Whether another process is waiting for the lock: a waiter keeps a mark, `<path>.wanted`, beside
   * the lock folder while it retries (one `lstat`). A holder that keeps the lock between tasks
   * checks it and lets go.
   */
  wanted(): boolean;
}

/** Options of {@link acquireFileLock}. */
export interface FileLockOptions {
  /** A lock whose holder stopped refreshing it this long ago (e.g. a killed process) is taken over. */
  staleMs: number;
  /** The error (usually `busy`) when another process kept the lock through every retry. */
  busy: (cause: unknown) => RepaError;
  /** The error (usually `busy`) when this process no longer holds the lock; `why` says what happened. */
  lost: (why: string, cause?: unknown) => RepaError;
}

/**
 * Takes the cross-process lock of `path`: a folder `<path>.lock` made with proper-lockfile, retried
 * for about 20 s (then `busy`) with the mark `<path>.wanted` left for the holder (see
 * {@link FileLock.wanted}; removed once taken), taken over when its holder stopped refreshing it for
 * `staleMs`. A compromise is recorded (never thrown from a timer) and refused by `assertHeld`. Other
 * failures throw `io_error`.
 */
export async function acquireFileLock(path: string, options: FileLockOptions): Promise<FileLock> {
  const folder = `${path}.lock`;
  const mark = `${path}.wanted`;
  let compromised: Error | undefined;
  let release: (() => Promise<void>) | undefined;
  const deadline = Date.now() + WAIT_MS;
  let pause = FIRST_PAUSE_MS;
  let waited = false;
  while (release === undefined) {
    try {
      release = await lock(path, {
        fs: lockFs,
        realpath: false,
        stale: options.staleMs,
        retries: 0,
        onCompromised: (error) => {
          compromised = error;
        },
      });
    } catch (error) {
      if (errnoCode(error) !== 'ELOCKED') throw ioError(error, `Locking ${path}`, { path });
      if (Date.now() >= deadline) {
        if (waited) removeMark(mark);
        throw options.busy(error);
      }
      // Renewed at every attempt: the holder that lets go for it may be another waiter's.
      waited = true;
      leaveMark(mark);
      await sleep(pause * (0.5 + Math.random()));
      pause = Math.min(pause * 1.2, LONGEST_PAUSE_MS);
    }
  }
  if (waited) removeMark(mark);
  const unlock = release;
  // proper-lockfile takes a stale lock over by removing the folder and making a new one, so a
  // folder with another inode or birth time is someone else's.
  const identityOf = (stats: BigIntStats) => `${stats.ino}:${stats.birthtimeNs}`;
  // A stat on the calling thread: microseconds, against a thread-pool round trip right before a commit.
  const current = async (): Promise<BigIntStats | undefined> => {
    try {
      return lstatSync(folder, { bigint: true });
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw ioError(error, `Checking the lock of ${path}`, { path });
    }
  };
  let identity: string;
  try {
    const stats = await current();
    if (stats === undefined)
      throw Object.assign(new Error(`${folder} vanished`), { code: 'ENOENT' });
    identity = identityOf(stats);
  } catch (error) {
    await unlock().catch(() => undefined);
    throw ioError(error, `Locking ${path}`, { path });
  }
  return {
    async assertHeld() {
      if (compromised !== undefined) throw options.lost(compromised.message, compromised);
      const stats = await current();
      if (stats === undefined) throw options.lost('its lock folder was removed');
      if (identityOf(stats) !== identity) throw options.lost('another process took it over');
      if (Date.now() - Number(stats.mtimeMs) > options.staleMs * STALE_MARGIN) {
        throw options.lost('this process stalled longer than the lock stays fresh');
      }
    },
    async release() {
      if (compromised !== undefined) return;
      const stats = await current().catch(() => undefined);
      if (stats !== undefined && identityOf(stats) === identity) await unlock();
      // A live waiter renews its mark at its next attempt; one a killed waiter left goes here.
      removeMark(mark);
    },
    wanted() {
      try {
        // The usual answer (nobody waits) without an exception: making one costs more than the lstat.
        return lstatSync(mark, { throwIfNoEntry: false }) !== undefined;
      } catch {
        return false;
      }
    },
  };
}

/** Leaves (or renews) the waiter's mark; a mark that cannot be made leaves the holder to its timer. */
function leaveMark(mark: string): void {
  try {
    closeSync(openSync(mark, MARK_FLAGS, 0o600));
  } catch {
    // A symlink or folder in its place still counts as a mark for `wanted`.
  }
}

function removeMark(mark: string): void {
  try {
    unlinkSync(mark);
  } catch {
    // Gone already (another waiter took the lock first), or not ours to remove.
  }
}
