import { ContentStore, type RecoveredSave } from '@repa/content';

/** What {@link recoverSpace} found in a space. */
export interface SpaceRecovery {
  /** What was done per intent record (rolled forward, kept recoverable, quarantined). */
  recovered: readonly RecoveredSave[];
  /** How many records remain for a person to look at (recoverable or quarantined). */
  remaining: number;
}

/**
 * Resolves a space's pending save intents after a crash (rolled forward when the rename happened,
 * otherwise kept as recoverable records; untrusted records quarantined) and reports what it did.
 */
export async function recoverSpace(space: string, appDirectory: string): Promise<SpaceRecovery> {
  const store = await ContentStore.open({ root: space, appDirectory });
  return { recovered: store.recovered, remaining: (await store.listRecoverable()).length };
}
