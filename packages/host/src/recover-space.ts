import { ContentStore } from '@repa/content';

/**
 * Resolves a space's pending save intents after a crash (rolled forward when the rename happened,
 * otherwise kept as recoverable records) and returns how many records remain to look at.
 */
export async function recoverSpace(space: string, appDirectory: string): Promise<number> {
  const store = await ContentStore.open({ root: space, appDirectory });
  return (await store.listRecoverable()).length;
}
