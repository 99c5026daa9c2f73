import { randomUUID } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { join } from 'node:path';
import { CREATE_EXCLUSIVE, type FsLayer } from '@repa/durable-fs';
import { TEMP_MARK } from './repa-files.js';

/**
 * Cheap change key of a file: device, inode, size, ctime, mtime (last, as `settledKey` reads it).
 * The ctime catches a rewrite whose mtime was set back (`touch -r`, `cp -p`): no one can set it.
 */
export const statKeyOf = (stats: BigIntStats) =>
  `${stats.dev}:${stats.ino}:${stats.size}:${stats.ctimeNs}:${stats.mtimeNs}`;

/** How long {@link probeTimestampStep} may take at most. */
const PROBE_MS = 50;
const MS = 1_000_000n;

/**
 * How coarse this file system's modification times are, measured in `dir` (a folder of Repa's own):
 * a probe file is written a byte at a time until its mtime has moved twice; the smaller move, plus
 * how far the mtimes lagged behind `Date.now()`. `undefined` when it cannot tell (read-only
 * folder, no move within 50 ms).
 */
export async function probeTimestampStep(fs: FsLayer, dir: string): Promise<bigint | undefined> {
  const path = join(dir, `clock-probe${TEMP_MARK}${randomUUID()}`);
  let handle: Awaited<ReturnType<FsLayer['open']>>;
  try {
    handle = await fs.open(path, CREATE_EXCLUSIVE, 0o600);
  } catch {
    return undefined;
  }
  try {
    const stamps: bigint[] = [];
    let lag = 0n;
    const deadline = Date.now() + PROBE_MS;
    while (stamps.length < 3 && Date.now() < deadline) {
      const before = BigInt(Date.now()) * MS;
      await fs.write(handle, Buffer.of(0x2e));
      const { mtimeNs } = await fs.fstat(handle);
      const after = BigInt(Date.now() + 1) * MS;
      const off = mtimeNs < before ? before - mtimeNs : mtimeNs > after ? mtimeNs - after : 0n;
      if (off > lag) lag = off;
      if (stamps.at(-1) !== mtimeNs) stamps.push(mtimeNs);
    }
    const [first, second, third] = stamps;
    if (first === undefined || second === undefined || third === undefined) return undefined;
    // Bigints: no Math.min / Math.max.
    let step = second - first;
    if (third - second < step) step = third - second;
    if (lag > step) step = lag;
    return step;
  } catch {
    return undefined;
  } finally {
    await fs.close(handle).catch(() => undefined);
    await fs.unlink(path).catch(() => undefined);
  }
}
