import { getAgentDir } from '@earendil-works/pi-coding-agent';
import { hideFromSpaces } from '@repa/content';

/** The folders of the machine that hold Pi's and Repa's own configuration. */
export interface MachineFolders {
  /** Pi's agent dir (credentials, models, extensions); Pi's own default when absent. */
  agentDir?: string | undefined;
  /** Repa's app dir (trusted spaces, ledger, grants). */
  appDirectory?: string | undefined;
}

/**
 * Hides Pi's agent dir and Repa's app dir from every space this process opens (design R69): a
 * space that holds them (one made in the home folder) never reads, lists or saves inside them.
 */
export function hideMachineFolders(folders: MachineFolders): void {
  hideFromSpaces(folders.agentDir ?? getAgentDir());
  if (folders.appDirectory !== undefined) hideFromSpaces(folders.appDirectory);
}
