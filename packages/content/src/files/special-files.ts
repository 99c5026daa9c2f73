import type { BigIntStats } from 'node:fs';
import { errnoCode, type FsLayer, READ_FOLLOW, READ_NO_FOLLOW } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { z } from 'zod';

/** What kind of file system object `stats` describes, for messages (`a FIFO`, `a device`, …). */
function kindOf(stats: BigIntStats | undefined): string {
  if (stats === undefined) return 'a socket or another special file';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSymbolicLink()) return 'a symlink';
  return 'a special file';
}

/**
 * The error for a FIFO, device or socket met where a file is expected (`shown` is the quoted
 * address): `invalid_request`, never a wait for a writer.
 */
export function notRegularFile(shown: string, stats?: BigIntStats): RepaError {
  return new RepaError('invalid_request', `${shown} is not a regular file (${kindOf(stats)}).`, {
    fix: 'Name a regular file; FIFOs, devices and sockets cannot be read or saved.',
  });
}

/** True for the errno codes open(2) gives for a socket (Linux `ENXIO`, macOS `EOPNOTSUPP`). */
export function isSocketOpenError(error: unknown): boolean {
  const code = errnoCode(error);
  return code === 'ENXIO' || code === 'EOPNOTSUPP';
}

/**
 * The error for one of Repa's own data files that is damaged: `data_corrupt`, naming the file;
 * `note` adds what removing the file costs.
 */
export function dataCorrupt(
  what: string,
  file: string,
  problem: string,
  options: { cause?: unknown; note?: string } = {},
): RepaError {
  const note = options.note === undefined ? '' : ` ${options.note}`;
  return new RepaError('data_corrupt', `The ${what} ${file} is damaged: ${problem}.`, {
    fix: `Repair or remove ${file}; nothing was overwritten.${note}`,
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}

/** A short description of why a data file did not parse (JSON syntax or the first schema issue). */
export function problemOf(error: unknown): string {
  if (error instanceof z.ZodError) {
    const issue = error.issues[0];
    return issue === undefined
      ? 'it does not match its format'
      : `${issue.path.join('.') || 'the file'}: ${issue.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * Reads one of Repa's own data files (`what` names it in messages), or returns `undefined` when it
 * does not exist. A FIFO, device, socket or folder in its place is `data_corrupt`, found without
 * waiting (so is a symlink with `follow: false`), and so is a file larger than `maxBytes`, found
 * from its size before a byte is read (spec R74); other failures are `io_error`. `note` is the
 * `data_corrupt` error's note.
 */
export async function readDataFile(
  fs: FsLayer,
  file: string,
  what: string,
  options: { follow?: boolean; note?: string; maxBytes: number },
): Promise<Buffer | undefined> {
  const { note, maxBytes } = options;
  const tooLarge = () => dataCorrupt(what, file, `it is larger than ${maxBytes} bytes`, { note });
  let handle: Awaited<ReturnType<FsLayer['open']>>;
  try {
    handle = await fs.open(file, options.follow === false ? READ_NO_FOLLOW : READ_FOLLOW);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    if (isSocketOpenError(error))
      throw dataCorrupt(what, file, 'it is not a regular file', { cause: error, note });
    if (errnoCode(error) === 'ELOOP')
      throw dataCorrupt(what, file, 'it is not a regular file (a symlink)', { cause: error, note });
    throw new RepaError('io_error', `Could not read ${file}: ${String(error)}`, { cause: error });
  }
  try {
    const stats = await fs.fstat(handle);
    if (!stats.isFile()) {
      const kind = stats.isDirectory() ? 'a folder' : kindOf(stats);
      throw dataCorrupt(what, file, `it is not a regular file (${kind})`, { note });
    }
    if (stats.size > BigInt(maxBytes)) throw tooLarge();
    const bytes = await fs.read(handle);
    // It grew while it was read.
    if (bytes.length > maxBytes) throw tooLarge();
    return bytes;
  } catch (error) {
    if (RepaError.isInstance(error)) throw error;
    throw new RepaError('io_error', `Could not read ${file}: ${String(error)}`, { cause: error });
  } finally {
    await fs.close(handle).catch(() => undefined);
  }
}
