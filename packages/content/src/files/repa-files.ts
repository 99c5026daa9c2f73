import { type BigIntStats, constants } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import {
  errnoCode,
  type FsHandle,
  type FsLayer,
  ignoreFolderContents,
  ioError,
  isReplaceTempName,
  READ_FOLLOW,
  READ_NO_FOLLOW,
  replaceFile,
  type SyncLevel,
  syncDirectory,
} from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { z } from 'zod';
import { isSocketOpenError, kindOf } from './special-files.js';

/**
 * How one of Repa's own logs in `.repa/` is opened to append to it: created when missing, never
 * through a symlink, never waiting on a FIFO.
 */
export const APPEND_OWN_LOG =
  constants.O_WRONLY |
  constants.O_APPEND |
  constants.O_CREAT |
  constants.O_NOFOLLOW |
  constants.O_NONBLOCK;

/** The checksum a line of one of Repa's own logs starts with: the crc32 of `data`, 8 hex digits. */
export function logChecksum(data: string | Uint8Array): string {
  return crc32(data).toString(16).padStart(8, '0');
}

/** The mark in the name of every temp file the store writes (beside a target, or in `.repa/`). */
export const TEMP_MARK = '.repa-tmp-';

function spaceUnsafe(path: string): RepaError {
  return new RepaError('space_unsafe', `${path} is not a plain folder (e.g. it is a symlink).`, {
    details: { path },
  });
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
  // A space's own `.repa/` is never committed or shared by accident.
  if (made && basename(dir) === '.repa') await ignoreFolderContents(dir, { fs });
  try {
    // Also when our mkdir found it just made by another process (EEXIST): that process's fsync of
    // the parent may not have run yet.
    await syncDirectory(dirname(dir), { fs });
  } catch (error) {
    // Gone again, so the next try makes it and fsyncs the parent (nothing but a .gitignore is in
    // it yet).
    if (made) {
      await fs.unlink(join(dir, '.gitignore')).catch(() => undefined);
      await fs.rmdir(dir).catch(() => undefined);
    }
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

/**
 * Whether `name` in `.repa/` (or its `intents/` and `history/`) is a temp file a killed writer
 * left: a save's, or a `writeRepaFile`'s of a `.json` or `.log` file.
 */
export function isStrayRepaTemp(name: string): boolean {
  const base = name.slice(0, name.lastIndexOf('.'));
  return (
    name.includes(TEMP_MARK) ||
    ((base.endsWith('.json') || base.endsWith('.log')) && isReplaceTempName(base, name))
  );
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
