import { rename } from 'node:fs/promises';
import { daemonPaths } from './app-directory.js';

/**
 * Runs `stop` (a clean stop of the daemon, which deletes its web state) with the web state set
 * aside, and puts it back after, so that the next daemon serves an open page again on the same
 * port with the same secret (`repa daemon restart`). The file is moved, never read: the daemon
 * checks it when it starts, as always.
 */
export async function keepingWebState<T>(appDirectory: string, stop: () => Promise<T>): Promise<T> {
  const { webStatePath } = daemonPaths(appDirectory);
  const aside = `${webStatePath}.restart`;
  const moved = await rename(webStatePath, aside).then(
    () => true,
    () => false,
  );
  try {
    return await stop();
  } finally {
    if (moved) await rename(aside, webStatePath).catch(() => undefined);
  }
}
