import { join } from 'node:path';
import { type FsLayer, nodeFsLayer } from './fs-layer.js';
import { createFile } from './replace-file.js';

/** What {@link ignoreFolderContents} writes: git (and tools that follow it) skip everything. */
export const IGNORE_EVERYTHING = '*\n';

/**
 * Gives a folder just made for an application's own data a `.gitignore` holding `*`, so a
 * folder kept in git or shared does not carry that data by accident; an existing `.gitignore` is
 * left as it is. Created whole or not at all after a killed process; not fsynced (a power loss
 * may take it: a convenience, not data), so making the folder costs no extra disk flush.
 */
export async function ignoreFolderContents(
  dir: string,
  options: { fs?: FsLayer } = {},
): Promise<void> {
  try {
    await createFile(join(dir, '.gitignore'), Buffer.from(IGNORE_EVERYTHING, 'utf8'), {
      fs: options.fs ?? nodeFsLayer,
      sync: 'none',
    });
  } catch (error) {
    const errno = (error as { details?: { errno?: unknown } }).details?.errno;
    if (errno !== 'EEXIST') throw error;
  }
}
