import type { BigIntStats } from 'node:fs';
import { errnoCode } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';

/** What kind of file system object `stats` describes, for messages (`a FIFO`, `a device`, …). */
export function kindOf(stats: BigIntStats | undefined): string {
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
