import {
  ContentStore,
  diffGroup,
  type HistoryLimits,
  type PruneReport,
  pruneSpaceHistory,
} from '@repa/content';
import type { V1Result } from '@repa/protocol';

/**
 * What a run (or a rewind) changed in `space`, per file, from the bytes its saves replaced and
 * wrote (kept in the space's `.repa/history/`); `file` narrows it to one file.
 */
export async function diffSpaceRun(
  space: string,
  appDirectory: string,
  runId: string,
  file?: string,
): Promise<V1Result<'run.diff'>> {
  const store = await ContentStore.open({ root: space, appDirectory });
  return { runId, ...(await diffGroup(store, runId, file)) };
}

/** Evicts, oldest first, what a space's kept history no longer may keep (`history.*` settings). */
export async function pruneSpaceHistoryOf(
  space: string,
  appDirectory: string,
  limits: HistoryLimits,
): Promise<PruneReport> {
  const store = await ContentStore.open({ root: space, appDirectory });
  return pruneSpaceHistory(store, limits);
}
