import { join } from 'node:path';
import { RepaError } from '@repa/protocol';
import { lock } from 'proper-lockfile';
import { errnoCode } from './fs-layer.js';
import { ioError } from './store-files.js';

/** The cross-process lock of a space's saves and records: `.repa/content.lock` (proper-lockfile). */
const LOCK_NAME = 'content';
/** A lock whose holder stopped refreshing it this long ago (e.g. a killed process) is taken over. */
const LOCK_STALE_MS = 5_000;
/** How long to keep retrying a held lock (about 20 s in total) before `busy`. */
const LOCK_RETRIES = { retries: 400, factor: 1.2, minTimeout: 2, maxTimeout: 50, randomize: true };

/** Takes the space's cross-process lock in `repaDir`; resolves to its release. */
export async function acquireSpaceLock(repaDir: string): Promise<() => Promise<void>> {
  try {
    return await lock(join(repaDir, LOCK_NAME), {
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
        fix: `Retry shortly. If no Repa process is running, remove the folder ${join(repaDir, `${LOCK_NAME}.lock`)}.`,
        cause: error,
      });
    }
    throw ioError(error, 'Locking the space');
  }
}
