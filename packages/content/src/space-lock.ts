import type { BigIntStats } from 'node:fs';
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { errnoCode, ioError } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { lock } from 'proper-lockfile';

/** The cross-process lock of a space's saves and records: `.repa/content.lock` (proper-lockfile). */
const LOCK_NAME = 'content';
/** A lock whose holder stopped refreshing it this long ago (e.g. a killed process) is taken over. */
const LOCK_STALE_MS = 5_000;
/** How long to keep retrying a held lock (about 20 s in total) before `busy`. */
const LOCK_RETRIES = { retries: 400, factor: 1.2, minTimeout: 2, maxTimeout: 50, randomize: true };

/** A held space lock. */
export interface SpaceLock {
  /** Releases the lock (a lock taken over by another process is left to it). */
  release(): Promise<void>;
  /**
   * Throws `busy` unless this process still holds the lock: not reported compromised, its folder
   * still the one this process made, and refreshed recently enough that no other process can have
   * taken it over as stale (e.g. after a long event-loop stall). Called right before a commit.
   */
  assertHeld(): Promise<void>;
}

function lostLock(why: string): RepaError {
  return new RepaError('busy', `The space's save lock was lost (${why}); nothing was saved.`, {
    fix: 'Read the file again and retry the save.',
  });
}

/** Takes the space's cross-process lock in `repaDir`. */
export async function acquireSpaceLock(repaDir: string): Promise<SpaceLock> {
  const folder = join(repaDir, `${LOCK_NAME}.lock`);
  let compromised: Error | undefined;
  let release: () => Promise<void>;
  try {
    release = await lock(join(repaDir, LOCK_NAME), {
      realpath: false,
      stale: LOCK_STALE_MS,
      retries: LOCK_RETRIES,
      // The default throws from a timer and crashes the process; a compromise is recorded here
      // and refused by `assertHeld` before the commit instead.
      onCompromised: (error) => {
        compromised = error;
      },
    });
  } catch (error) {
    if (errnoCode(error) === 'ELOCKED') {
      throw new RepaError('busy', 'Another Repa process kept this space locked for saving.', {
        fix: `Retry shortly. If no Repa process is running, remove the folder ${join(repaDir, `${LOCK_NAME}.lock`)}.`,
        cause: error,
      });
    }
    throw ioError(error, 'Locking the space');
  }
  const identityOf = (stats: BigIntStats) => `${stats.ino}:${stats.birthtimeNs}`;
  const identity = await lstat(folder, { bigint: true }).then(identityOf);
  return {
    release: async () => {
      if (compromised !== undefined) return;
      const stats = await lstat(folder, { bigint: true }).catch(() => undefined);
      if (stats !== undefined && identityOf(stats) === identity) await release();
    },
    assertHeld: async () => {
      if (compromised !== undefined) throw lostLock(compromised.message);
      const stats = await lstat(folder, { bigint: true }).catch(() => undefined);
      if (stats === undefined || identityOf(stats) !== identity)
        throw lostLock('another process took it');
      // proper-lockfile refreshes the folder's mtime every `stale / 2`; older than 3/4 of `stale`
      // means this process stalled and another may take the lock over at any moment.
      if (Date.now() - Number(stats.mtimeMs) > LOCK_STALE_MS * 0.75) {
        throw lostLock('this process stalled longer than the lock stays fresh');
      }
    },
  };
}
