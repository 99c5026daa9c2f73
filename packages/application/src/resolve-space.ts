import { realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { RepaError } from '@repa/protocol';
import type { SpaceTrust } from './space-trust.js';

/**
 * The real root of a folder a client named: an absolute path to an existing folder
 * (`invalid_request` for a relative path or a file, `not_found` for nothing there). Opens nothing.
 */
export async function resolveFolder(root: string): Promise<string> {
  if (!isAbsolute(root)) {
    throw new RepaError('invalid_request', `The space root must be an absolute path: ${root}`, {
      fix: 'Pass the absolute path of the space folder.',
    });
  }
  let real: string;
  let folder: boolean;
  try {
    // Both at once (every request naming a space asks): `stat` follows links to the same folder.
    const [resolved, stats] = await Promise.all([realpath(root), stat(root)]);
    real = resolved;
    folder = stats.isDirectory();
  } catch {
    throw new RepaError('not_found', `There is no space folder at ${root}.`, {
      fix: 'Create the folder first, or pass the path of an existing space.',
    });
  }
  if (!folder) {
    throw new RepaError('invalid_request', `${root} is a file, not a folder.`, {
      fix: `Open the folder that holds it: ${dirname(root)}`,
    });
  }
  return real;
}

/** The real root of a space a client named ({@link resolveFolder}), admitted the first time. */
export async function resolveSpace(root: string, trust: SpaceTrust): Promise<string> {
  const real = await resolveFolder(root);
  await trust.admit(real);
  return real;
}
