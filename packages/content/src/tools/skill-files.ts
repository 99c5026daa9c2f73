import { basename, dirname, isAbsolute, resolve, sep } from 'node:path';
import { RepaError } from '@repa/protocol';
import { versionOf } from '../files/index.js';
import type { ContentSnapshot } from '../space/index.js';
import type { ContentStore } from '../store/index.js';

/** What the skill checks need of the tool options (a structural slice, so no import cycle). */
interface SkillOptions {
  store: ContentStore;
  skillFiles?: (() => readonly string[]) | undefined;
}

// A skill in its own folder (`<name>/SKILL.md`) may refer to files beside it.
const SKILL_FOLDER_FILE = 'SKILL.md';

const inside = (path: string, folder: string) => path.startsWith(folder + sep);

/**
 * Whether `path` (absolute, symlinks resolved or not) is a file of a skill the catalog offers: the
 * skill's file itself, or a file inside the folder of a `SKILL.md`.
 */
function isSkillPath(path: string, skillFiles: readonly string[]): boolean {
  return skillFiles.some((file) => {
    const resolved = resolve(file);
    if (path === resolved) return true;
    return basename(resolved) === SKILL_FOLDER_FILE && inside(path, dirname(resolved));
  });
}

async function realOrSelf(store: ContentStore, path: string): Promise<string> {
  return store.space.fs.realpath(path).catch(() => path);
}

/**
 * Whether `address` names a file of an offered skill, by its spelling or by its real location.
 * Contract: only absolute addresses can; a space path or identity never does.
 */
async function skillAddress(options: SkillOptions, address: string): Promise<string | undefined> {
  const files = options.skillFiles?.() ?? [];
  if (files.length === 0 || !isAbsolute(address)) return undefined;
  const path = resolve(address);
  if (!isSkillPath(path, files)) return undefined;
  const real = await realOrSelf(options.store, path);
  const realFiles = await Promise.all(
    files.map((file) => realOrSelf(options.store, resolve(file))),
  );
  return isSkillPath(real, realFiles) ? real : undefined;
}

/**
 * The snapshot of an offered skill's file at `address`, or `undefined` when `address` is not one.
 * Skill files are read-only and untracked (spec R54): no identity is assigned, nothing is observed.
 */
export async function readSkillFile(
  options: SkillOptions,
  address: string,
): Promise<ContentSnapshot | undefined> {
  const real = await skillAddress(options, address);
  if (real === undefined) return undefined;
  const location = { target: real, absolutePath: real, outside: true, identity: address };
  const { bytes, statKey, readAt } = await options.store.space.readStable(location);
  return { ...location, bytes, statKey, readAt, version: versionOf(bytes) };
}

/** Throws `protected_path` when `address` names an offered skill's file (skills are read-only). */
export async function refuseSkillFile(options: SkillOptions, address: string): Promise<void> {
  if ((await skillAddress(options, address)) === undefined) return;
  throw new RepaError('protected_path', `${address} is a skill's file; skills are read-only.`, {
    fix: 'Save a copy inside the space instead.',
  });
}
