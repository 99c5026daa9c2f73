import { ContentStore } from '@repa/content';
import { loadHost } from './load-host.js';

/**
 * A space's content store, for what the application reads or changes of a space without a session
 * (files, citations, diffs, kept history, recovery). It opens only once the machine folders of this
 * process's applications are hidden from every space (design R69): Pi's default agent dir is Pi's
 * to name, so host's first load hides them, and every store the application opens waits for it.
 */
export async function openSpaceStore(space: string, appDirectory: string): Promise<ContentStore> {
  await loadHost();
  return ContentStore.open({ root: space, appDirectory });
}
