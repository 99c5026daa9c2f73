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
