import type { FileChange } from '@repa/protocol';
import { type HistoryLimits, type PruneReport, pruneHistory } from '../history/index.js';
import type { ContentStore } from '../store/index.js';

/**
 * Evicts what the space's kept history no longer may keep (the `history.*` limits; oldest first),
 * under the space's lock.
 */
export function pruneSpaceHistory(
  store: ContentStore,
  limits: HistoryLimits,
): Promise<PruneReport> {
  return store.underLock(() => pruneHistory(store.history, limits));
}

/**
 * Records the files a `bash` command changed as operation `operationId` of its run, so a diff or
 * rewind of the run lists them as not rewindable (a command leaves no receipts and keeps no bytes).
 */
export async function recordCommandChanges(
  store: ContentStore,
  operationId: string,
  changes: readonly FileChange[],
): Promise<void> {
  if (changes.length === 0) return;
  const receipts = changes.map((change) => ({
    operationId,
    target: change.target,
    identity: change.identity ?? '',
    previousVersion: change.previousVersion,
    version: change.version,
    bytes: change.bytes ?? 0,
  }));
  await store.underLock(() => store.history.record(operationId, receipts, { kind: 'command' }));
}
