import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { CliContext } from './cli-context.js';

/**
 * The working directory when it is a space already (it has `.repa/`), for commands that tell the
 * model its next run uses; undefined otherwise (nothing is made a space by asking).
 */
export function currentSpace(context: Pick<CliContext, 'cwd'>): string | undefined {
  const root = resolve(context.cwd);
  return existsSync(join(root, '.repa')) ? root : undefined;
}
