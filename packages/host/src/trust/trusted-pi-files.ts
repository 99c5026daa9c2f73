import { createHash } from 'node:crypto';
import { realpathSync, type Stats } from 'node:fs';
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { ResourceLoader, Skill } from '@earendil-works/pi-coding-agent';
import { INSTRUCTION_FILES } from '@repa/content';
import { RepaError } from '@repa/protocol';

/** Files Pi reads whole from a trusted space's `.pi/` folder. */
const PI_FILES = ['settings.json', 'SYSTEM.md', 'APPEND_SYSTEM.md'];
/** Folders of a trusted space whose files Pi reads synchronously while it loads resources. */
const PI_FOLDERS = [
  join('.pi', 'skills'),
  join('.pi', 'prompts'),
  join('.pi', 'extensions'),
  join('.agents', 'skills'),
];
/** The largest file of a space that Pi may read whole while a session is built. */
export const PI_FILE_LIMIT = 1024 * 1024;
/** The most entries of the folders above checked before Pi reads them. */
const PI_ENTRY_LIMIT = 2_000;

/** What Repa itself wrote in a space, which an untrusted space may still use (spec R13). */
export interface KnownToRepa {
  /** Digests ({@link learningContextDigest}) of the learning contexts Repa wrote in the space. */
  contexts: readonly string[];
  /** Whether Repa started (or ran) the session with this id in the space. */
  session(sessionId: string): boolean;
}

/** The digest that identifies a learning context Repa wrote: sha256 hex of its body. */
export function learningContextDigest(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex');
}

/**
 * The instruction files an untrusted space holds at its root, by name (never read): the prompt
 * report names them as withheld for want of trust.
 */
export async function withheldInstructionFiles(space: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of INSTRUCTION_FILES) {
    if (await lstatOrUndefined(join(space, name))) found.push(join(space, name));
  }
  return found;
}

async function lstatOrUndefined(path: string): Promise<Stats | undefined> {
  try {
    return await lstat(path);
  } catch {
    return undefined;
  }
}

const insideOf = (root: string, path: string) => path === root || path.startsWith(root + sep);

/**
 * Refuses a trusted space whose own Pi files would stall or flood the daemon when Pi reads them
 * synchronously while it builds a session: `space_unsafe` for a FIFO, socket or device, a link
 * leaving the space or more than 2,000 entries in its skill and prompt folders; `data_too_large`
 * for a file over 1 MiB.
 */
export async function checkTrustedPiFiles(space: string): Promise<void> {
  const root = await realpath(space);
  const refuse = (path: string, what: string) =>
    new RepaError('space_unsafe', `${relative(root, path) || '.'} ${what}; Pi would read it.`, {
      fix: 'Remove or replace that file of the space (or withdraw trust with repa untrust), then run again.',
      details: { path: relative(root, path) },
    });
  const checkFile = async (path: string): Promise<'file' | 'folder' | undefined> => {
    const link = await lstatOrUndefined(path);
    if (!link) return undefined;
    let stats = link;
    if (link.isSymbolicLink()) {
      const target = await realpath(path).catch(() => undefined);
      if (target === undefined) return undefined; // A dangling link: Pi skips it.
      if (!insideOf(root, target)) throw refuse(path, 'is a link leading out of the space');
      stats = await stat(target);
    }
    if (stats.isDirectory()) return 'folder';
    if (!stats.isFile()) throw refuse(path, 'is not a regular file (a FIFO, socket or device)');
    if (stats.size > PI_FILE_LIMIT) {
      throw new RepaError(
        'data_too_large',
        `${relative(root, path)} is ${stats.size} bytes, over the ${PI_FILE_LIMIT} bytes Pi may read of a space's own file.`,
        {
          fix: 'Shorten or remove that file of the space, then run again.',
          details: { path: relative(root, path), limit: PI_FILE_LIMIT },
        },
      );
    }
    return 'file';
  };
  // Every top-level path at once (a few turns of the event loop, not one per path, on every
  // run's submit); the first problem in this order is the one reported.
  const folders = PI_FOLDERS.map((folder) => join(root, folder));
  const settled = await Promise.allSettled(
    [
      // `.pi` and `.agents` themselves first: a link of either leading out would load code from there.
      join(root, '.pi'),
      join(root, '.agents'),
      ...INSTRUCTION_FILES.map((name) => join(root, name)),
      ...PI_FILES.map((name) => join(root, '.pi', name)),
      ...folders,
    ].map(checkFile),
  );
  const failed = settled.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  const kinds = settled
    .slice(-folders.length)
    .map((result) => (result.status === 'fulfilled' ? result.value : undefined));
  let entries = 0;
  const walk = async (folder: string, depth: number): Promise<void> => {
    for (const name of await readdir(folder).catch(() => [] as string[])) {
      entries += 1;
      if (entries > PI_ENTRY_LIMIT) {
        throw refuse(
          folder,
          `holds more than ${PI_ENTRY_LIMIT} entries in skill and prompt folders`,
        );
      }
      const path = join(folder, name);
      if ((await checkFile(path)) === 'folder' && depth < 8) await walk(path, depth + 1);
    }
  };
  for (const [index, folder] of folders.entries()) {
    if (kinds[index] === 'folder') await walk(folder, 1);
  }
}

/**
 * The space's resource loader, offering only the skills a session may: the learner's own (Pi's
 * user scope) wherever they are, and a project skill only when its file really lies inside the
 * space (spec R54); the others become warnings. Pi reads skills through the loader both for the
 * catalog and to expand `/skill:name`, so a skill outside the space is neither offered nor read.
 */
export function withSkillsWithinSpace<T extends ResourceLoader>(loader: T, space: string): T {
  const root = realOr(space);
  // Pi replaces its skill list on reload and answers each call with a new object around it: the
  // filtered answer is kept while the list is the same (the prompt cache compares by identity).
  let seen: readonly Skill[] | undefined;
  let kept: ReturnType<ResourceLoader['getSkills']> | undefined;
  const getSkills = () => {
    const base = loader.getSkills();
    if (base.skills === seen && kept) return kept;
    const skills: Skill[] = [];
    const diagnostics = [...base.diagnostics];
    for (const skill of base.skills) {
      const real = skill.sourceInfo.scope === 'project' ? realOr(skill.filePath, '') : root;
      if (insideOf(root, real)) skills.push(skill);
      else {
        diagnostics.push({
          type: 'warning',
          message: `Skill ${skill.name} is left out: a space's own skill must lie inside the space.`,
          path: skill.filePath,
        });
      }
    }
    seen = base.skills;
    kept = { skills, diagnostics };
    return kept;
  };
  return new Proxy(loader, {
    get: (target, property) => {
      if (property === 'getSkills') return getSkills;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function realOr(path: string, fallback = path): string {
  try {
    return realpathSync(path);
  } catch {
    return fallback;
  }
}
