import { constants, type Stats } from 'node:fs';
import { lstat, open, opendir, readlink } from 'node:fs/promises';
import type { RestrictedItem } from '@repa/protocol';

// Bounded, no-follow reading of a space for its trust preview (trust-preview.ts), and the list it
// builds: names and the first bytes of regular files only, nothing followed, run or imported.

/** What trusting lets an extension or a package do, said the same way for each. */
export const RUNS_AS_CODE = 'runs as code on your machine with your rights';
/** The most folder entries one preview reads (names only), over all folders. */
export const ENTRY_BUDGET = 2_000;
/** The most items of one list (extensions, skills, templates, packages) named one by one. */
const LISTED_LIMIT = 50;
/** The characters shown of a name the space chose (a file name, a link's target, a settings entry). */
const NAME_CHARS = 200;
/** Opens a file without following a link and without waiting on a FIFO. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/**
 * Text shown as it is, except characters that could hide or fake what is around them (control,
 * bidirectional and line-separator characters), which are shown as `\u{…}` escapes; cut at `max`.
 */
export function shown(text: string, max = NAME_CHARS): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(
    /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu,
    (character) => `\\u{${(character.codePointAt(0) ?? 0).toString(16)}}`,
  );
}

export const lstatOr = (path: string): Promise<Stats | undefined> =>
  lstat(path).catch(() => undefined);

/** Where a link leads, as written in it (never followed). */
export async function linkTarget(path: string): Promise<string> {
  return shown(await readlink(path).catch(() => '?'));
}

/** Entry names the preview may still read, and whether it ran out. */
export interface Budget {
  left: number;
  cut: boolean;
}

/** The names in a folder, sorted, within the budget (the folder itself is not a link). */
export async function namesIn(folder: string, budget: Budget): Promise<string[]> {
  const names: string[] = [];
  try {
    const dir = await opendir(folder);
    for await (const entry of dir) {
      if (budget.left <= 0) {
        budget.cut = true;
        break;
      }
      budget.left -= 1;
      names.push(entry.name);
    }
  } catch {
    // An unreadable folder lists what was read.
  }
  return names.sort();
}

/**
 * The first `bytes` of a regular file, opened without following a link or waiting on a FIFO;
 * undefined for anything else.
 */
export async function headOf(
  path: string,
  bytes: number,
): Promise<{ text: string; size: number } | undefined> {
  if (!(await lstatOr(path))?.isFile()) return undefined;
  const handle = await open(path, OPEN_FLAGS).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return undefined;
    const buffer = Buffer.alloc(Math.min(bytes, stats.size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return { text: buffer.subarray(0, bytesRead).toString('utf8'), size: stats.size };
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Builds the list: code first, each kind in the order found. */
export class Preview {
  readonly code: RestrictedItem[] = [];
  readonly other: RestrictedItem[] = [];
  readonly budget: Budget = { left: ENTRY_BUDGET, cut: false };

  add(item: RestrictedItem): void {
    (item.runsCode ? this.code : this.other).push(item);
  }

  /** Adds each item up to the limit, then one that says how many more there are. */
  addListed(items: RestrictedItem[], more: (count: number) => RestrictedItem): void {
    for (const item of items.slice(0, LISTED_LIMIT)) this.add(item);
    if (items.length > LISTED_LIMIT) this.add(more(items.length - LISTED_LIMIT));
  }

  /** A link or a non-regular file where Pi expects a file or folder: named, never followed. */
  async odd(path: string, rel: string, stats: Stats, kind: RestrictedItem['kind'], what: string) {
    const code = rel === '.pi' || rel === '.pi/extensions' || rel === '.pi/settings.json';
    this.add({
      kind,
      path: rel,
      ...(code ? { runsCode: true } : {}),
      detail: stats.isSymbolicLink()
        ? `A link to ${await linkTarget(path)}: Pi follows it to ${what}${code ? `; what it loads there ${RUNS_AS_CODE}` : ''}.`
        : 'Not a regular file or folder (a FIFO, socket or device): Repa refuses to run with it while the space is trusted.',
    });
  }
}
