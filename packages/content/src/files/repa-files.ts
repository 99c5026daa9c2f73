import { randomUUID } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import {
  CREATE_EXCLUSIVE,
  errnoCode,
  type FsHandle,
  type FsLayer,
  ioError,
  isReplaceTempName,
  replaceFile,
  type SyncLevel,
  syncDirectory,
} from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';

/** The mark in the name of every temp file the store writes (beside a target, or in `.repa/`). */
export const TEMP_MARK = '.repa-tmp-';

/**
 * Cheap change key of a file: device, inode, size, ctime, mtime (last, as `settledKey` reads it).
 * The ctime catches a rewrite whose mtime was set back (`touch -r`, `cp -p`): no one can set it.
 */
export const statKeyOf = (stats: BigIntStats) =>
  `${stats.dev}:${stats.ino}:${stats.size}:${stats.ctimeNs}:${stats.mtimeNs}`;

/** A native path as a `/`-separated one. */
export const toPosix = (path: string) => path.split(sep).join('/');

function spaceUnsafe(path: string): RepaError {
  return new RepaError('space_unsafe', `${path} is not a plain folder (e.g. it is a symlink).`, {
    details: { path },
  });
}

/**
 * Writes a new file (`O_EXCL`) with `bytes`, gives it exactly `mode` when not `null` (created with
 * it, and `fchmod` only when the umask changed it), and fsyncs it (unless
 * `sync` is false: then it survives a killed process, not a power loss).
 */
export async function writeNewFile(
  fs: FsLayer,
  path: string,
  bytes: Uint8Array,
  mode: number | null,
  sync = true,
): Promise<void> {
  const handle = await fs.open(path, CREATE_EXCLUSIVE, mode ?? 0o666);
  try {
    await fs.write(handle, bytes);
    // The umask may have taken bits off; a chmod (a journaled change) only when it did.
    if (mode !== null && Number((await fs.fstat(handle)).mode & 0o7777n) !== mode) {
      await fs.chmod(handle, mode);
    }
    if (sync) await fs.sync(handle);
  } finally {
    await fs.close(handle).catch(() => undefined);
  }
}

/**
 * Opens one of the files Repa writes in place in `.repa/` (`flags` must hold `O_NOFOLLOW`), with its
 * size: it must be a plain file with one link, else `space_unsafe` (never written through);
 * other failures are `io_error` (`what` names the file in them).
 */
export async function openOwnFile(
  fs: FsLayer,
  path: string,
  flags: number,
  what: string,
): Promise<{ handle: FsHandle; size: number }> {
  const unsafe = () =>
    new RepaError('space_unsafe', `${path} is not a plain file of Repa's own.`, {
      details: { path },
    });
  let handle: FsHandle;
  try {
    handle = await fs.open(path, flags, 0o600);
  } catch (error) {
    if (errnoCode(error) === 'ELOOP') throw unsafe();
    throw ioError(error, `Opening ${what}`);
  }
  try {
    const stats = await fs.fstat(handle);
    if (!stats.isFile() || stats.nlink !== 1n) throw unsafe();
    return { handle, size: Number(stats.size) };
  } catch (error) {
    await fs.close(handle).catch(() => undefined);
    throw RepaError.isInstance(error) ? error : ioError(error, `Opening ${what}`);
  }
}

/** Removes a temp file, but only from the folder it was planned in (never through a swapped symlink). */
export async function removeTemp(fs: FsLayer, temp: string, target: string): Promise<boolean> {
  try {
    if ((await fs.realpath(dirname(temp))) !== dirname(target)) return false;
    await fs.unlink(temp);
    return true;
  } catch (error) {
    return errnoCode(error) === 'ENOENT';
  }
}

/** Whether `path` exists (`lstat`). */
export async function exists(fs: FsLayer, path: string): Promise<boolean> {
  try {
    await fs.lstat(path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw ioError(error, `Checking ${path}`);
  }
}

/** Whether `dir` exists; throws `space_unsafe` when it is anything but a real folder (`lstat`). */
export async function realDirExists(fs: FsLayer, dir: string): Promise<boolean> {
  let stats: BigIntStats;
  try {
    stats = await fs.lstat(dir);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return false;
    throw ioError(error, `Checking ${dir}`);
  }
  if (!stats.isDirectory()) throw spaceUnsafe(dir);
  return true;
}

/**
 * Creates `dir` (one of `.repa/` and its folders) if missing, and fsyncs its parent so the new name
 * survives a power loss with what is recorded in it; it must be a real folder.
 */
export async function ensureDir(fs: FsLayer, dir: string): Promise<void> {
  if (await realDirExists(fs, dir)) return;
  let made = false;
  try {
    await fs.mkdir(dir);
    made = true;
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  if (!(await realDirExists(fs, dir))) throw spaceUnsafe(dir);
  try {
    // Also when our mkdir found it just made by another process (EEXIST): that process's fsync of
    // the parent may not have run yet.
    await syncDirectory(dirname(dir), { fs });
  } catch (error) {
    // Gone again, so the next try makes it and fsyncs the parent (still empty: nothing is in it yet).
    if (made) await fs.rmdir(dir).catch(() => undefined);
    throw error;
  }
}

/**
 * Atomically replaces one of Repa's own files in `repaDir` or a folder of it, creating the folders
 * as real folders first: `@repa/durable-fs`'s `replaceFile` (temp file `<name>.<number>`, fsync,
 * rename, folder fsync — fewer fsyncs as `sync` says; `io_error` on failure).
 */
export async function writeRepaFile(
  fs: FsLayer,
  repaDir: string,
  path: string,
  text: string | Uint8Array,
  sync: SyncLevel = 'all',
): Promise<void> {
  await ensureDir(fs, repaDir);
  if (dirname(path) !== repaDir) await ensureDir(fs, dirname(path));
  await replaceFile(path, typeof text === 'string' ? Buffer.from(text, 'utf8') : text, {
    fs,
    sync,
  });
}

/** Whether `name` in `.repa/` is a temp file a killed writer left: a save's or a `writeRepaFile`'s. */
export function isStrayRepaTemp(name: string): boolean {
  const base = name.slice(0, name.lastIndexOf('.'));
  return name.includes(TEMP_MARK) || (base.endsWith('.json') && isReplaceTempName(base, name));
}

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
