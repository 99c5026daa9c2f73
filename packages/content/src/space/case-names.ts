import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { CREATE_EXCLUSIVE, errnoCode, type FsLayer } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';

const show = (value: string) => JSON.stringify(value);

/**
 * The key two names share when a case-insensitive disk may take them for the same name: NFC, then
 * Unicode case folding (upper then lower case, so `ß`/`SS` and `ς`/`σ` meet), then NFC again.
 */
function caseKey(name: string): string {
  return name.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
}

/**
 * Refuses one save whose targets (relative `/`-separated paths) name the same file or folder in
 * spellings that differ only by case or Unicode normalisation (`A.md` and `a.md`, `Notes/x.md`
 * and `notes/y.md`): on a case-insensitive disk the second would silently replace or join the
 * first. Throws `invalid_request` naming both spellings.
 */
export function refuseCaseTwins(targets: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const target of targets) {
    const parts = target.split('/');
    for (let length = 1; length <= parts.length; length++) {
      const spelling = parts.slice(0, length).join('/');
      const key = caseKey(spelling);
      const other = seen.get(key);
      if (other === undefined) seen.set(key, spelling);
      else if (other !== spelling) {
        throw new RepaError(
          'invalid_request',
          `The save names both ${show(other)} and ${show(spelling)}, which differ only by case or Unicode normalisation; on a case-insensitive disk (Windows, macOS) they are the same name.`,
          { fix: 'Use one spelling for each file and folder.' },
        );
      }
    }
  }
}

/**
 * Refuses `target` (a relative path) when one of its parts differs only by case or normalisation
 * from an existing entry of its folder, e.g. a new `a.md` next to `A.md`: on the space's
 * case-insensitive disk they are the same file. Throws `invalid_request` naming both.
 */
export async function refuseCaseClash(fs: FsLayer, root: string, target: string): Promise<void> {
  const parts = target.split('/');
  for (const [index, part] of parts.entries()) {
    let names: string[];
    try {
      names = await fs.readdir(join(root, ...parts.slice(0, index)));
    } catch {
      return; // The folder does not exist yet: nothing in it can clash.
    }
    if (names.includes(part)) continue;
    const existing = names.find((name) => caseKey(name) === caseKey(part));
    if (existing === undefined) continue;
    const existingPath = [...parts.slice(0, index), existing].join('/');
    throw new RepaError(
      'invalid_request',
      `${show(target)} differs only by case or Unicode normalisation from the existing ${show(existingPath)}; this space's disk is case-insensitive, so both names are the same.`,
      { fix: `Use the existing spelling ${show(existingPath)}, or another name.` },
    );
  }
}

const PROBE_PREFIX = '.repa-case-probe-';
const PROBE = /^\.repa-case-probe-[0-9a-f-]{36}$/u;

/** `name` with the case of each ASCII letter swapped (`Notes.md` → `nOTES.MD`). */
function swapAsciiCase(name: string): string {
  return name.replace(/[A-Za-z]/gu, (char) =>
    char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase(),
  );
}

/**
 * Whether the folder `root` is on a case-insensitive disk. The probe runs in `root` itself (so a
 * mount point or a per-folder setting is seen as the space's files see it):
 * 1. an existing entry with an ASCII letter is looked up with every letter's case swapped: the
 *    same file (device and inode) means case-insensitive, none (or another file, or both spellings
 *    listed by `readdir`) case-sensitive; nothing is written;
 * 2. when no entry has a letter (an empty space), a uniquely named probe file is created there
 *    (`O_EXCL`), looked up the same way and removed; a probe left by a crash is removed next time;
 * 3. when the probe cannot be created (a read-only space), the disk is taken as case-insensitive,
 *    the stricter assumption.
 * The folders below `root` are assumed to follow `root` (a per-folder setting there is not seen).
 */
export async function isCaseInsensitive(fs: FsLayer, root: string): Promise<boolean> {
  let names: string[] = [];
  try {
    names = await fs.readdir(root);
  } catch {
    // Unreadable: probe by creating a file below.
  }
  // A set: a root of many names without letters must not cost a scan of all names per name.
  const listed = new Set(names);
  for (const name of names) {
    if (PROBE.test(name)) {
      await fs.unlink(join(root, name)).catch(() => undefined);
      continue;
    }
    const swapped = swapAsciiCase(name);
    if (swapped === name) continue;
    // Both spellings listed: two distinct entries, so the disk tells case apart.
    if (listed.has(swapped)) return false;
    const answer = await sameFileUnderSwappedCase(fs, root, name);
    if (answer !== undefined) return answer;
  }
  const probe = `${PROBE_PREFIX}${randomUUID()}`;
  try {
    await fs.close(await fs.open(join(root, probe), CREATE_EXCLUSIVE, 0o600));
  } catch {
    return true;
  }
  try {
    return (await sameFileUnderSwappedCase(fs, root, probe)) ?? true;
  } finally {
    await fs.unlink(join(root, probe)).catch(() => undefined);
  }
}

/** Whether `name` and its case-swapped spelling are one file; `undefined` when it cannot tell. */
async function sameFileUnderSwappedCase(
  fs: FsLayer,
  root: string,
  name: string,
): Promise<boolean | undefined> {
  const swapped = swapAsciiCase(name);
  if (swapped === name) return undefined;
  let original: Awaited<ReturnType<FsLayer['lstat']>>;
  try {
    original = await fs.lstat(join(root, name));
  } catch {
    return undefined; // Removed meanwhile: try another entry.
  }
  try {
    const other = await fs.lstat(join(root, swapped));
    return other.dev === original.dev && other.ino === original.ino;
  } catch (error) {
    const code = errnoCode(error);
    return code === 'ENOENT' || code === 'ENOTDIR' ? false : undefined;
  }
}
