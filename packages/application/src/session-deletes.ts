import { RepaError } from '@repa/protocol';
import { loadHost } from './load-host.js';
import type { RunLedger } from './runs/run-ledger.js';
import type { SessionHosts } from './session-hosts.js';

/**
 * Deletes a session: its runs leave the listings first (a mark in the ledger), then its file goes,
 * then its runs (and the images only they used) leave the ledger with the mark. A crash between
 * the steps leaves the mark, and {@link finishSessionDeletes} completes them when the daemon
 * starts again; a file that cannot be deleted takes the mark back (the session and its runs
 * stay). Returns the runs removed.
 */
export async function deleteSession(
  space: string,
  sessionId: string,
  parts: { ledger: RunLedger; hosts: SessionHosts },
): Promise<number> {
  const { ledger, hosts } = parts;
  ledger.beginSessionDelete(space, sessionId);
  await hosts.release(space, sessionId);
  try {
    await (await loadHost()).deleteSpaceSession(space, sessionId);
  } catch (error) {
    if (!(RepaError.isInstance(error) && error.code === 'not_found')) {
      ledger.cancelSessionDelete(space, sessionId);
      throw error;
    }
  }
  const removed = ledger.removeSession(space, sessionId);
  ledger.sweepImages();
  return removed;
}

/** Completes the session deletions a crash interrupted (see {@link deleteSession}). */
export async function finishSessionDeletes(
  ledger: RunLedger,
  log: (line: string) => void,
): Promise<void> {
  for (const { space, sessionId } of ledger.deletingSessions()) {
    try {
      await (await loadHost()).deleteSpaceSession(space, sessionId);
    } catch (error) {
      if (!(RepaError.isInstance(error) && error.code === 'not_found')) {
        // The session stays, and so do its runs: listed again, to delete once more.
        ledger.cancelSessionDelete(space, sessionId);
        const reason = RepaError.fromUnknown(error).message;
        log(`${new Date().toISOString()} session ${sessionId} could not be deleted: ${reason}\n`);
        continue;
      }
    }
    ledger.removeSession(space, sessionId);
  }
  ledger.sweepImages();
}
