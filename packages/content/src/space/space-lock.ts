import { join } from 'node:path';
import { acquireFileLock, type FileLock } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';

/** The cross-process lock of a space's saves and records: `.repa/content.lock` (proper-lockfile). */
const LOCK_NAME = 'content';
/** A lock whose holder stopped refreshing it this long ago (e.g. a killed process) is taken over. */
const LOCK_STALE_MS = 5_000;

/**
 * A held space lock; `assertHeld` (called right before a commit) throws `busy` unless this process
 * still holds it, `release` leaves a lock another process took over to it.
 */
export type SpaceLock = FileLock;

/** Takes the space's cross-process lock in `repaDir` (`durable-fs`'s `acquireFileLock`). */
export function acquireSpaceLock(repaDir: string): Promise<SpaceLock> {
  const path = join(repaDir, LOCK_NAME);
  return acquireFileLock(path, {
    staleMs: LOCK_STALE_MS,
    busy: (cause) =>
      new RepaError('busy', 'Another Repa process kept this space locked for saving.', {
        fix: `Retry shortly. If no Repa process is running, remove the folder ${path}.lock.`,
        cause,
      }),
    lost: (why) =>
      new RepaError('busy', `The space's save lock was lost (${why}); nothing was saved.`, {
        fix: 'Read the file again and retry the save.',
      }),
  });
}
