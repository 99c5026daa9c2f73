import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** The version of some bytes: their lowercase hex sha256. */
export function versionOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** How many bytes are hashed or scanned between two turns of the event loop. */
export const YIELD_EVERY = 1024 * 1024;

/**
 * {@link versionOf} for bytes of any size: hashed in slices of {@link YIELD_EVERY} bytes, letting
 * the event loop run between them, so a huge file never holds other clients up.
 */
export async function versionOfYielding(bytes: Uint8Array): Promise<string> {
  if (bytes.length <= YIELD_EVERY) return versionOf(bytes);
  const hash = createHash('sha256');
  for (let start = 0; start < bytes.length; start += YIELD_EVERY) {
    hash.update(bytes.subarray(start, start + YIELD_EVERY));
    await nextTurn();
  }
  return hash.digest('hex');
}

/**
 * How many lines `text` has, as `text.split('\n').length` counts them (0 for no text), found
 * without splitting it: its newlines are counted {@link YIELD_EVERY} bytes or characters at a time,
 * the event loop running between them, so a huge text never holds other clients up.
 */
export async function countLines(text: Uint8Array | string): Promise<number> {
  if (text.length === 0) return 0;
  const isNewline =
    typeof text === 'string'
      ? (index: number) => text.charCodeAt(index) === 0x0a
      : (index: number) => text[index] === 0x0a;
  let lines = 1;
  for (let start = 0; start < text.length; start += YIELD_EVERY) {
    if (start > 0) await nextTurn();
    const end = Math.min(text.length, start + YIELD_EVERY);
    for (let index = start; index < end; index++) if (isNewline(index)) lines++;
  }
  return lines;
}

/**
 * The first `maxChars` characters (UTF-16 units) of the UTF-8 text in `bytes` (invalid bytes as
 * U+FFFD), decoded from no more bytes than they can take (3 a character, and one more character's
 * worth), and whether the whole text is longer: a huge text is never decoded whole.
 */
export function textHead(
  bytes: Uint8Array,
  maxChars: number,
): { text: string; truncated: boolean } {
  const end = Math.min(bytes.length, maxChars * 3 + 3);
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
    'utf8',
    0,
    end,
  );
  return { text: head.slice(0, maxChars), truncated: end < bytes.length || head.length > maxChars };
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The bytes as text when they are valid UTF-8 without NUL characters; otherwise `undefined`. */
export function decodeText(bytes: Uint8Array): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return decoder.decode(bytes);
  } catch {
    return undefined;
  }
}

const lenientDecoder = new TextDecoder('utf-8');

/** A short excerpt of a file's start for error details (text, or a note for binary content). */
export function excerptOf(bytes: Uint8Array, maxChars = 600): string {
  const head = bytes.subarray(0, maxChars * 4);
  if (head.includes(0)) return `(binary content, ${bytes.length} bytes)`;
  // A cut through a multi-byte character decodes to U+FFFD at the very end; drop it.
  const text = lenientDecoder.decode(head).replace(/\uFFFD$/u, '');
  return text.length > maxChars || bytes.length > head.length
    ? `${text.slice(0, maxChars)}…`
    : text;
}
