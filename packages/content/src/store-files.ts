import type { BigIntStats } from 'node:fs';
import { dirname, sep } from 'node:path';
import {
  CREATE_EXCLUSIVE,
  errnoCode,
  type FsLayer,
  ioError,
  isReplaceTempName,
  replaceFile,
} from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';

/** The mark in the name of every temp file the store writes (beside a target, or in `.repa/`). */
export const TEMP_MARK = '.repa-tmp-';

/** Cheap change key of a file: device, inode, size, mtime. */
export const statKeyOf = (stats: BigIntStats) =>
  `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeNs}`;

/** A native path as a `/`-separated one. */
export const toPosix = (path: string) => path.split(sep).join('/');

function spaceUnsafe(path: string): RepaError {
  return new RepaError('space_unsafe', `${path} is not a plain folder (e.g. it is a symlink).`, {
    details: { path },
  });
}

/** Writes a new file (`O_EXCL`) with `bytes`, gives it `mode` when not `null`, and fsyncs it. */
export async function writeNewFile(
  fs: FsLayer,
  path: string,
  bytes: Uint8Array,
  mode: number | null,
): Promise<void> {
  const handle = await fs.open(path, CREATE_EXCLUSIVE, 0o666);
  try {
    await fs.write(handle, bytes);
    if (mode !== null) await fs.chmod(handle, mode);
    await fs.sync(handle);
  } finally {
    await fs.close(handle).catch(() => undefined);
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

/** Creates `dir` (one of `.repa/` and its folders) if missing; it must be a real folder. */
export async function ensureDir(fs: FsLayer, dir: string): Promise<void> {
  if (await realDirExists(fs, dir)) return;
  try {
    await fs.mkdir(dir);
  } catch (error) {
    if (errnoCode(error) !== 'EEXIST') throw error;
  }
  if (!(await realDirExists(fs, dir))) throw spaceUnsafe(dir);
}

/**
 * Atomically replaces one of Repa's own files in `repaDir` or a folder of it, creating the folders
 * as real folders first: `@repa/durable-fs`'s `replaceFile` (temp file `<name>.<number>`, fsync,
 * rename, folder fsync; `io_error` on failure).
 */
export async function writeRepaFile(
  fs: FsLayer,
  repaDir: string,
  path: string,
  text: string,
): Promise<void> {
  await ensureDir(fs, repaDir);
  if (dirname(path) !== repaDir) await ensureDir(fs, dirname(path));
  await replaceFile(path, Buffer.from(text, 'utf8'), { fs });
}

/** Whether `name` in `.repa/` is a temp file a killed writer left: a save's or a `writeRepaFile`'s. */
export function isStrayRepaTemp(name: string): boolean {
  const base = name.slice(0, name.lastIndexOf('.'));
  return name.includes(TEMP_MARK) || (base.endsWith('.json') && isReplaceTempName(base, name));
}
