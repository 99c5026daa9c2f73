import { RepaError } from '@repa/protocol';

/**
 * The largest file the store reads (bytes, spec R74): a larger one is `file_too_large`, found from
 * its size before a byte is read, so a sparse terabyte file costs one `fstat`.
 */
export const MAX_READ_BYTES = 256 * 1024 * 1024;

/** The `file_too_large` error for `shown` (a quoted address, or "The save") of `size` bytes. */
export function fileTooLarge(shown: string, size: bigint | number): RepaError {
  return new RepaError(
    'file_too_large',
    `${shown} is ${size} bytes, over the limit of ${MAX_READ_BYTES} bytes (256 MiB) that Repa reads or saves at once.`,
    { details: { bytes: Number(size), limit: MAX_READ_BYTES } },
  );
}

/**
 * The error for a path longer than the system takes (`ENAMETOOLONG`): `invalid_request` naming it
 * space-relatively (cut short), never the absolute path the system's message holds.
 */
export function pathTooLong(path: string): RepaError {
  const shown = path.length > 120 ? `${path.slice(0, 119)}…` : path;
  return new RepaError(
    'invalid_request',
    `The path ${JSON.stringify(shown)} (${path.length} characters) is longer than the system allows (ENAMETOOLONG).`,
    { fix: 'Move the file to a shallower folder, or use a shorter path.' },
  );
}
