import { realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { RepaError } from '@repa/protocol';
import type { HomeRule } from './home-rule.js';
import type { SpaceTrust } from './space-trust.js';

/**
 * The real root of a folder a client named: an absolute path to an existing folder
 * (`invalid_request` for a relative path or a file, `not_found` for nothing there). Opens nothing.
 */
async function resolveFolder(root: string): Promise<string> {
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

/**
 * Where every method reaches the folder its params name (see `handlers/method-folders.ts`): the
 * folder is checked, the home rule applied (design R17), a session id checked, and the folder
 * opened only for a method that writes or runs there (design R13).
 */
export class FolderGate {
  readonly #trust: SpaceTrust;
  readonly #homeRule: HomeRule;

  constructor(trust: SpaceTrust, homeRule: HomeRule) {
    this.#trust = trust;
    this.#homeRule = homeRule;
  }

  /**
   * The real root of a folder a client named ({@link resolveFolder}); a folder under the home rule
   * is refused (`space_unsafe`) unless the learner named it, now (`named`) or before. Opens nothing.
   */
  async resolve(root: string, named = false): Promise<{ root: string; home: boolean }> {
    const real = await resolveFolder(root);
    const refusal = await this.#homeRule.refusal(real);
    if (refusal !== undefined) {
      if (named) this.#trust.name(real);
      else if (!this.#trust.isNamed(real)) throw refusal;
    }
    return { root: real, home: refusal !== undefined };
  }

  /** Whether the home rule keeps the folder (a real root) from being shown as a space. */
  async refuses(root: string): Promise<boolean> {
    return (await this.#homeRule.refusal(root)) !== undefined && !this.#trust.isNamed(root);
  }

  /** The one check of a session id in a space (`not_found` for one Repa does not know there). */
  session(root: string, sessionId: string): Promise<void> {
    return this.#trust.checkSession(root, sessionId);
  }

  /** Opens a resolved folder: it joins the list of spaces, trusted when Repa makes it one (R13). */
  open(resolved: { root: string; home: boolean }): Promise<void> {
    return this.#trust.admit(resolved.root, !resolved.home);
  }
}
