import { createHash } from 'node:crypto';

/** The version of some bytes: their lowercase hex sha256. */
export function versionOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
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
