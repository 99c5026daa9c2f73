import { isUtf8 } from 'node:buffer';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RepaError } from '@repa/protocol';
import { nameProblem } from './space-path.js';

const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };
const hex = (byte: number) => `\\x${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * A folder entry's name (its bytes) as text that shows what it is: line breaks and tabs as `\n`,
 * `\r`, `\t`, other control characters and every byte that is not UTF-8 as `\xNN`, a backslash as
 * `\\`; other characters as they are.
 */
export function shownName(raw: Uint8Array): string {
  const bytes = Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength);
  let shown = '';
  for (let at = 0; at < bytes.length; ) {
    // The shortest run of bytes from here that is one whole UTF-8 character, if any.
    let length = 1;
    while (length <= 4 && !isUtf8(bytes.subarray(at, at + length))) length++;
    if (length > 4 || at + length > bytes.length) {
      shown += hex(bytes[at] as number);
      at += 1;
      continue;
    }
    const char = bytes.toString('utf8', at, at + length);
    const code = char.charCodeAt(0);
    shown += ESCAPES[char] ?? (code < 0x20 || code === 0x7f ? hex(code) : char);
    at += length;
  }
  return shown;
}

/** The error for a name whose bytes are not UTF-8 (`shown`: as {@link shownName} shows it). */
function notUtf8(shown: string): RepaError {
  return new RepaError(
    'invalid_request',
    `The name "${shown}" is not valid UTF-8, so Repa cannot name the file to open or change it.`,
    {
      fix: 'Rename it to a name in UTF-8 (e.g. in a terminal, where the system shows its bytes), then open it again.',
    },
  );
}

/**
 * One entry of a folder as a listing shows it: its name as text, and, when no path of the space can
 * name it, why (the error opening it gives): bytes that are not UTF-8, a control character, a `\`,
 * or anything else {@link nameProblem} finds. Such a name is shown by {@link shownName}. `name` is
 * its bytes, or its text when that is known to be them.
 */
export function listedName(name: string | Uint8Array): { name: string; problem?: RepaError } {
  if (typeof name !== 'string' && !isUtf8(name)) {
    const shown = shownName(name);
    return { name: shown, problem: notUtf8(shown) };
  }
  const text =
    typeof name === 'string'
      ? name
      : Buffer.from(name.buffer, name.byteOffset, name.byteLength).toString('utf8');
  const problem = nameProblem(text);
  return problem === undefined ? { name: text } : { name: shownName(Buffer.from(text)), problem };
}

/**
 * For a path of the space that was not found: the error of the first name in it that stands for
 * bytes which are not UTF-8 (a U+FFFD there matching such a name of its folder, as a lossy
 * listing would show it), so opening it says why; `undefined` when there is none.
 */
export async function unnamedFileError(root: string, path: string): Promise<RepaError | undefined> {
  if (!path.includes('\uFFFD')) return undefined;
  const parts = path.split('/');
  let folder = root;
  for (const part of parts) {
    if (part.includes('\uFFFD')) {
      const names = await readdir(folder, { encoding: 'buffer' }).catch(() => []);
      const found = names.find((raw) => !isUtf8(raw) && raw.toString('utf8') === part);
      if (found !== undefined) return notUtf8(shownName(found));
    }
    folder = join(folder, part);
  }
  return undefined;
}
