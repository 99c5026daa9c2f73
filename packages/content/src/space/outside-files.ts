import { sep } from 'node:path';
import { errnoCode, type FsHandle, type FsLayer, READ_NO_FOLLOW } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { parseIdentity } from './content-address.js';
import { isProtectedName, REPA_FOLDER } from './space-path.js';

/**
 * The refusal of an outside file (a granted material, an offered skill's file) that is no longer
 * the real file recorded: `material_not_granted` for a material (what the link leads to was never
 * granted; re-granting names the new file), else `path_outside_space`. `shown` names it (its
 * identity or address).
 */
function linkedAway(path: string, shown: string): RepaError {
  const material = parseIdentity(shown);
  if (material?.kind === 'material') {
    return new RepaError(
      'material_not_granted',
      `The material ${shown} was granted as the file ${path}, which is now a link or is reached through one; Repa never reads what a link put there leads to.`,
      {
        fix: `Ask the learner to grant the file again if it is the one they mean: repa materials remove ${material.id}, then repa materials add PATH --id ${material.id}.`,
        details: { path },
      },
    );
  }
  return new RepaError(
    'path_outside_space',
    `${JSON.stringify(shown)} is now a link or is reached through one; it is not read.`,
    { details: { path } },
  );
}

/**
 * Checks that an outside file recorded by its real path (see {@link openOutsideFile}) is still
 * reached at that path without a link, when something is there (a missing file is left to the
 * read that reports it).
 */
export async function checkOutsidePath(fs: FsLayer, path: string, shown: string): Promise<void> {
  if (path.split(sep).some(isProtectedName)) {
    throw new RepaError(
      'protected_path',
      `${JSON.stringify(shown)} lies inside a ${REPA_FOLDER} folder, which only Repa reads.`,
      { fix: `Grant a file outside every ${REPA_FOLDER} folder.`, details: { path } },
    );
  }
  const real = await fs.realpath(path).catch((error: unknown) => {
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return path;
    throw error;
  });
  if (real !== path) throw linkedAway(path, shown);
}

/**
 * Opens an outside file recorded by its real path (a material's grant, an offered skill's file)
 * for reading, never through a link: the path must still be its own real path, it is opened
 * without following a last link and without waiting on a FIFO, and the file opened must be the one
 * at the path afterwards (same device and inode, the real path unchanged), else
 * `material_not_granted` (a material) or `path_outside_space`; a path inside a `.repa` folder is
 * `protected_path`. Other failures (ENOENT, …) are thrown as they are; the caller checks the
 * opened file's type.
 */
export async function openOutsideFile(fs: FsLayer, path: string, shown: string): Promise<FsHandle> {
  await checkOutsidePath(fs, path, shown);
  let handle: FsHandle;
  try {
    handle = await fs.open(path, READ_NO_FOLLOW);
  } catch (error) {
    if (errnoCode(error) === 'ELOOP') throw linkedAway(path, shown);
    throw error;
  }
  try {
    const opened = await fs.fstat(handle);
    const now = await fs.lstat(path);
    if (opened.dev !== now.dev || opened.ino !== now.ino || (await fs.realpath(path)) !== path) {
      throw linkedAway(path, shown);
    }
    return handle;
  } catch (error) {
    await fs.close(handle).catch(() => undefined);
    throw error;
  }
}
