import { realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, parse, relative } from 'node:path';
import { RepaError } from '@repa/protocol';

/** Why a folder is never made a space unless the learner names it (design R17). */
type HomeReason = 'root' | 'home' | 'agent-dir' | 'app-dir';

/** The real paths the home rule keeps out of reach. */
interface HomePlaces {
  home: string;
  agentDir: string;
  appDirectory: string;
}

/**
 * The home rule (design R17): the root of the file system, the learner's home folder and any
 * folder that holds Pi's agent dir or Repa's app dir are folders one lives in, not folders of
 * study. A space there would hand the agent Pi's keys and extensions, Repa's own trust and every
 * other folder, so such a folder is a space only when the learner names it.
 */
export class HomeRule {
  readonly #appDirectory: string;
  readonly #agentDir: () => Promise<string>;
  #places: Promise<HomePlaces> | undefined;

  /** `agentDir` is asked once, at the first folder checked. */
  constructor(appDirectory: string, agentDir: () => Promise<string>) {
    this.#appDirectory = appDirectory;
    this.#agentDir = agentDir;
  }

  /** The refusal of a folder (its real path) as a space not named, or undefined for a folder of study. */
  async refusal(real: string): Promise<RepaError | undefined> {
    const places = await this.#placesNow();
    const reason = reasonOf(real, places);
    if (reason === undefined) return undefined;
    const why: Record<HomeReason, string> = {
      root: 'is the root of the file system',
      home: 'is your home folder',
      'agent-dir': `holds Pi's configuration (${places.agentDir}: keys, models, extensions)`,
      'app-dir': `holds Repa's own folder (${places.appDirectory}: settings, runs, trust)`,
    };
    return new RepaError(
      'space_unsafe',
      `${real} ${why[reason]}: Repa makes it a space only when you name it, since the agent would reach everything in it.`,
      {
        fix: `Make a folder for what you study and work there (mkdir -p ~/courses/biology, then repa run --space ~/courses/biology …, or run repa in it). To make ${real} a space anyway, name it: --space ${real}.`,
        details: { space: real, reason },
      },
    );
  }

  #placesNow(): Promise<HomePlaces> {
    this.#places ??= (async () => ({
      home: await realOf(homedir()),
      agentDir: await realOf(await this.#agentDir()),
      appDirectory: await realOf(this.#appDirectory),
    }))();
    this.#places.catch(() => {
      this.#places = undefined;
    });
    return this.#places;
  }
}

/** Why `real` falls under the home rule, if it does. */
function reasonOf(real: string, places: HomePlaces): HomeReason | undefined {
  if (parse(real).root === real) return 'root';
  if (real === places.home) return 'home';
  if (holds(real, places.agentDir)) return 'agent-dir';
  if (holds(real, places.appDirectory)) return 'app-dir';
  return undefined;
}

/** Whether `folder` is `path` or one of the folders above it. */
function holds(folder: string, path: string): boolean {
  const inside = relative(folder, path);
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
}

/** The real path of `path`, through its nearest existing folder when it does not exist (yet). */
async function realOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(await realOf(parent), basename(path));
  }
}
