import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type CliContext, isHomeFolder } from './cli-context.js';

/**
 * The working directory when it is a space already (it has `.repa/`) and not the home folder or
 * the root of the file system (spaces only when named, design R17), for commands that tell the
 * model its next run uses; undefined otherwise (nothing is made a space by asking).
 */
export function currentSpace(context: Pick<CliContext, 'cwd'>): string | undefined {
  const root = resolve(context.cwd);
  return existsSync(join(root, '.repa')) && !isHomeFolder(root) ? root : undefined;
}
