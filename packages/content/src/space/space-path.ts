import { sep } from 'node:path';
import { RepaError } from '@repa/protocol';
import { PROTECTED_NAMES, type ProtectedName, REPA_FOLDER } from './protected-paths.js';

export { REPA_FOLDER };

const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;
// Characters that render as nothing and could hide inside a name (format characters and Hangul
// fillers); invisible combining marks go with the accents below.
const INVISIBLE = /[\p{Cf}\u115F\u1160\u3164\uFFA0]/gu;
const COMBINING_MARKS = /\p{M}/gu;
// Characters that look like the letters and the dot of `.repa`, mapped to them.
const LOOK_ALIKES: Record<string, string> = {
  '\u3002': '.',
  '\uFF61': '.',
  '\u00B7': '.',
  '\u0701': '.',
  '\u0702': '.',
  '\uA4F8': '.',
  '\u2024': '.',
  '\u2027': '.',
  '\u2219': '.',
  '\u22C5': '.',
  '\u0430': 'a',
  '\u0251': 'a',
  '\u03B1': 'a',
  '\u237A': 'a',
  '\u0435': 'e',
  '\u04BD': 'e',
  '\u212E': 'e',
  '\uAB32': 'e',
  '\u0440': 'p',
  '\u03C1': 'p',
  '\u03F1': 'p',
  '\u2374': 'p',
  '\u0433': 'r',
  '\u1D26': 'r',
  '\u2C85': 'r',
  '\uAB47': 'r',
  '\uAB48': 'r',
};

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/u;

/**
 * The spelling a name is compared under for protection: compatibility-normalised (fullwidth dot →
 * `.`), invisible characters and accents removed, lower-cased, look-alike letters mapped to ASCII,
 * and trailing dots and spaces dropped (Windows ignores them).
 */
function protectionSkeleton(name: string): string {
  // Printable ASCII needs none of the Unicode folding below (the common case, on every path check).
  if (PRINTABLE_ASCII.test(name)) return name.toLowerCase().replace(/[. ]+$/u, '');
  const folded = name
    .normalize('NFKC')
    .replace(INVISIBLE, '')
    .normalize('NFD')
    .replace(COMBINING_MARKS, '')
    .toLowerCase();
  let mapped = '';
  for (const char of folded) mapped += LOOK_ALIKES[char] ?? char;
  return mapped.replace(/[. ]+$/u, '');
}

/** The 8.3 short-name pattern of `name` (`REPA~1` for `.repa`, `AGENTS~1.MD`), which reaches it on Windows. */
function shortNameAlias(name: string): RegExp {
  const bare = name.toLowerCase().replace(/^\./u, '');
  const dot = bare.lastIndexOf('.');
  const stem = (dot > 0 ? bare.slice(0, dot) : bare).replace(/\./gu, '').slice(0, 6);
  const extension = dot > 0 ? `\\.${bare.slice(dot + 1, dot + 4)}` : '';
  return new RegExp(`^${stem.replace(/[^a-z0-9]/gu, '')}~[0-9]+${extension}$`, 'u');
}

const PROTECTED_SKELETONS = new Map(
  PROTECTED_NAMES.map((entry) => [protectionSkeleton(entry.name), entry] as const),
);
const PROTECTED_ALIASES = PROTECTED_NAMES.map(
  (entry) => [shortNameAlias(entry.name), entry] as const,
);

/**
 * The protected name (see `PROTECTED_NAMES`) that `name` is, or could be mistaken for (case,
 * look-alike letters, invisible characters, trailing dots, 8.3 short names), or `undefined`.
 */
export function protectedNameOf(name: string): ProtectedName | undefined {
  const skeleton = protectionSkeleton(name);
  const entry = PROTECTED_SKELETONS.get(skeleton);
  if (entry !== undefined || !skeleton.includes('~')) return entry;
  return PROTECTED_ALIASES.find(([alias]) => alias.test(skeleton))?.[1];
}

/**
 * True when `name` is, or could be mistaken for, Repa's own `.repa` folder, including its 8.3
 * short-name aliases (`REPA~1`): hidden from every read and save.
 */
export function isProtectedName(name: string): boolean {
  return protectedNameOf(name)?.access === 'hidden';
}

const show = (value: string) => JSON.stringify(value);

/**
 * Checks a path given by a tool or a caller and returns it in canonical relative form
 * (`/`-separated, without `.` and empty parts). Throws a RepaError for every unsafe spelling:
 * absolute paths (drives `C:`, `C:\…`) and `..` parts (`path_outside_space`), `.repa` look-alikes
 * and its 8.3 alias `REPA~1` (`protected_path`), NUL and control characters, `:` anywhere,
 * Windows-reserved names and names ending in a dot or a space (`invalid_request`). Both `/` and `\` separate parts.
 * Contract: only the spelling is checked here; symlinks are resolved by the store.
 */
export function parseSpacePath(input: string): string {
  if (typeof input !== 'string' || input.length === 0) {
    throw new RepaError('invalid_request', 'The path is empty.', {
      fix: 'Give a path relative to the space root, e.g. notes/intro.md.',
    });
  }
  if (input.includes('\0')) {
    throw new RepaError('invalid_request', `The path ${show(input)} contains a NUL byte.`, {
      fix: 'Remove the NUL character from the path.',
    });
  }
  if ([...input].some((char) => char < ' ' || char === '\u007F')) {
    throw new RepaError(
      'invalid_request',
      `The path ${show(input)} contains a control character.`,
      {
        fix: 'Remove line breaks, tabs and other control characters from the path.',
      },
    );
  }
  // A drive (`C:` alone, `C:\…`, `C:/…`) is absolute; any other `:` is refused below.
  if (/^([/\\]|[A-Za-z]:([/\\]|$)|~([/\\]|$)|file:)/u.test(input)) {
    throw new RepaError('path_outside_space', `The path ${show(input)} is absolute.`, {
      fix: 'Use a path relative to the space root (e.g. notes/intro.md), or a repa: identity.',
    });
  }
  // On Windows `name:stream` names an NTFS alternate data stream and `C:name` a drive-relative
  // path: refused on every OS so that a space stays portable.
  if (input.includes(':')) {
    throw new RepaError('invalid_request', `The path ${show(input)} contains ":".`, {
      fix: 'Remove the ":" from the name; Windows reads it as a drive or a data stream.',
    });
  }
  const parts = input.split(/[/\\]/u).filter((part) => part !== '' && part !== '.');
  if (parts.includes('..')) {
    throw new RepaError('path_outside_space', `The path ${show(input)} uses "..".`, {
      fix: 'Use a path inside the space without "..", relative to the space root.',
    });
  }
  if (parts.length === 0) {
    throw new RepaError('invalid_request', `The path ${show(input)} names the space root itself.`, {
      fix: 'Name a file inside the space, e.g. notes/intro.md.',
    });
  }
  for (const part of parts) {
    if (isProtectedName(part)) {
      throw new RepaError(
        'protected_path',
        `The path ${show(input)} is inside Repa's own ${REPA_FOLDER} folder.`,
      );
    }
    if (/[. ]$/u.test(part)) {
      throw new RepaError(
        'invalid_request',
        `The path ${show(input)} has a name ending in a dot or a space (${show(part)}).`,
        { fix: 'Remove the trailing dot or space; such names do not survive on Windows.' },
      );
    }
    const stem = (part.split('.')[0] ?? '').trimEnd();
    if (WINDOWS_RESERVED.test(stem)) {
      throw new RepaError(
        'invalid_request',
        `The path ${show(input)} uses the Windows-reserved name ${show(part)}.`,
        { fix: 'Choose another name; CON, PRN, AUX, NUL, COM1–9 and LPT1–9 are reserved.' },
      );
    }
  }
  return parts.join('/');
}

// What {@link parseSpacePath} can refuse in one name of a folder (beside `.repa` look-alikes),
// tested at once: most names have none of it, and a walk meets every name. Control characters, `\`
// and `:`; a trailing dot or space; `~`; a Windows-reserved stem (before the first dot, trailing
// white space left out).
const SUSPECT_NAME = new RegExp(
  `[\\u0000-\\u001F\\u007F\\\\:]|[. ]$|^~$|${WINDOWS_RESERVED.source.slice(0, -1)}\\s*(\\.|$)`,
  'iu',
);

/**
 * Why `name`, one entry of a folder, cannot be part of a path of the space, as the error opening it
 * gives: what {@link parseSpacePath} refuses in it, or a `\`, which it reads as a separator (the
 * path would name another file). `undefined` for a name it takes as it is.
 */
export function nameProblem(name: string): RepaError | undefined {
  if (!SUSPECT_NAME.test(name)) return undefined;
  let parsed: string;
  try {
    parsed = parseSpacePath(name);
  } catch (error) {
    if (RepaError.isInstance(error)) return error;
    throw error;
  }
  if (parsed === name) return undefined;
  return new RepaError(
    'invalid_request',
    `The name ${show(name)} holds a backslash, which Repa reads as a folder separator.`,
    { fix: 'Rename the file without the backslash to work on it with Repa.' },
  );
}

/** A native path as a `/`-separated one. */
export const toPosix = (path: string) => path.split(sep).join('/');
