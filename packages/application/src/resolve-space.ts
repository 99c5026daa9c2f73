import { realpath, stat } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { RepaError } from '@repa/protocol';
import type { SpaceTrust } from './space-trust.js';

/**
 * The real root of a space a client named: an absolute path to an existing folder
 * (`invalid_request`, `not_found` otherwise), looked at by {@link SpaceTrust.admit} the first time.
 */
export async function resolveSpace(root: string, trust: SpaceTrust): Promise<string> {
  if (!isAbsolute(root)) {
    throw new RepaError('invalid_request', `The space root must be an absolute path: ${root}`, {
      fix: 'Pass the absolute path of the space folder.',
    });
  }
  let real: string;
  try {
    real = await realpath(root);
    if (!(await stat(real)).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new RepaError('not_found', `There is no space folder at ${root}.`, {
      fix: 'Create the folder first, or pass the path of an existing space.',
    });
  }
  await trust.admit(real);
  return real;
}
