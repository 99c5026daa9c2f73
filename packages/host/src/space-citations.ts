import { ContentStore, markChangedSince } from '@repa/content';
import type { Citation } from '@repa/protocol';

/**
 * A run's citations as shown now: each marked `changedSince` when its document no longer has the
 * version the run read (spec R60). One read per cited document; none without citations.
 */
export async function citationsShownNow(
  space: string,
  appDirectory: string,
  citations: readonly Citation[],
): Promise<Citation[]> {
  if (citations.length === 0) return [];
  const store = await ContentStore.open({ root: space, appDirectory });
  return markChangedSince(store, citations);
}
