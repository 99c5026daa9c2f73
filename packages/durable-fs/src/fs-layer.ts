import type { BigIntStats } from 'node:fs';
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsync,
  ftruncateSync,
  linkSync,
  lstatSync,
  mkdirSync,
  open as openCallback,
  openSync,
  read as readCallback,
  readFile as readFileCallback,
  readSync,
  realpathSync,
  renameSync,
  rmdirSync,
  unlinkSync,
  write as writeCallback,
  writeSync,
} from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

/** An open file of an {@link FsLayer}: its descriptor. */
export interface FsHandle {
  readonly fd: number;
}

/**
 * Every file-system call a durable writer makes, one method per system call, so tests can fail any
 * single step (ENOSPC, EIO) and see what is left behind.
 */
export interface FsLayer {
  lstat(path: string): Promise<BigIntStats>;
  realpath(path: string): Promise<string>;
  readFile(path: string): Promise<Buffer>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string): Promise<void>;
  rmdir(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Makes `to` a hard link of `from`; fails with EEXIST when `to` exists. */
  link(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  /** Opens a file; `flags` as for `fs.open` (numeric flags allow `O_NOFOLLOW`). */
  open(path: string, flags: string | number, mode?: number): Promise<FsHandle>;
  /** Writes all of `bytes` at the file position, or at `position` (a `pwrite`) when given. */
  write(handle: FsHandle, bytes: Uint8Array, position?: number): Promise<void>;
  read(handle: FsHandle): Promise<Buffer>;
  /** Reads up to `length` bytes at `position` (`pread`); a short read is the end of the file. */
  readAt(handle: FsHandle, length: number, position: number): Promise<Buffer>;
  /** Cuts the file to `length` bytes (`ftruncate`). */
  truncate(handle: FsHandle, length: number): Promise<void>;
  fstat(handle: FsHandle): Promise<BigIntStats>;
  chmod(handle: FsHandle, mode: number): Promise<void>;
  sync(handle: FsHandle): Promise<void>;
  close(handle: FsHandle): Promise<void>;
  /** Flushes a directory's entries (renames, new and removed names) to disk. */
  syncDir(path: string): Promise<void>;
}

/**
 * Flags for reading a file without following a symlink in its last component. `O_NONBLOCK` makes
 * opening a FIFO or a device return at once (so its type can be checked with `fstat`); it has no
 * effect on regular files.
 */
export const READ_NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Flags for reading a file through symlinks (Repa's own data files in the application directory); see {@link READ_NO_FOLLOW}. */
export const READ_FOLLOW = constants.O_RDONLY | constants.O_NONBLOCK;

/** Flags for creating a new file that must not exist yet (never follows a symlink). */
export const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

/**
 * Up to this many bytes a read or write runs on the calling thread; larger ones go through the
 * thread pool in slices of this size, so a huge file never holds the event loop.
 */
const INLINE_BYTES = 64 * 1024;

const openAsync = promisify(openCallback);
const fsyncAsync = promisify(fsync);
const readAsync = promisify(readCallback);
const writeAsync = promisify(writeCallback);

/** Flags whose open(2) returns at once whatever is at the path (no wait for a FIFO's writer). */
const opensAtOnce = (flags: string | number) =>
  typeof flags === 'number' &&
  ((flags & constants.O_NONBLOCK) !== 0 ||
    (flags & (constants.O_CREAT | constants.O_EXCL)) === (constants.O_CREAT | constants.O_EXCL));

const readFileAsync = promisify(readFileCallback);

/** How much one read through the thread pool takes (as `readFile` does). */
const POOL_READ_BYTES = 512 * 1024;

/** An open file of {@link nodeFsLayer}: whether its position is still at the start. */
class NodeFsHandle implements FsHandle {
  atStart = true;
  constructor(readonly fd: number) {}
}

/**
 * Reads the whole file from offset 0 (to its end, even if it grew): on this thread when it is
 * small; else with Node's own `readFile` while the position is at the start (its buffers go back
 * to the system as soon as they are garbage, where a loop of `read` calls kept the daemon's memory
 * up), and with positional reads through the pool after that.
 */
async function readAll(handle: FsHandle): Promise<Buffer> {
  const { fd } = handle;
  const size = Number(fstatSync(fd).size);
  if (size > INLINE_BYTES && handle instanceof NodeFsHandle && handle.atStart) {
    handle.atStart = false;
    return readFileAsync(fd);
  }
  let buffer = Buffer.allocUnsafe(size + 1);
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      const larger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(larger, 0, 0, total);
      buffer = larger;
    }
    const inline = size <= INLINE_BYTES && total < INLINE_BYTES;
    const length = Math.min(buffer.length - total, inline ? INLINE_BYTES : POOL_READ_BYTES);
    const read = inline
      ? readSync(fd, buffer, total, length, total)
      : (await readAsync(fd, buffer, total, length, total)).bytesRead;
    total += read;
    // A short read is the end of the file (so a small file takes one read of its size plus one).
    if (read < length) break;
  }
  return buffer.subarray(0, total);
}

/**
 * The real file system. Calls that only touch metadata (stat, open, rename, unlink, close, …) and
 * reads and writes up to 64 KiB run on the calling thread — microseconds on a local disk against
 * ~50 µs for a round trip through libuv's thread pool; fsync, folder listings and larger transfers
 * run in the pool. Each method still returns a promise, and a failure rejects it.
 */
export const nodeFsLayer: FsLayer = {
  lstat: async (path) => lstatSync(path, { bigint: true }),
  realpath: async (path) => realpathSync.native(path),
  readFile: (path) => readFile(path),
  readdir: (path) => readdir(path),
  mkdir: async (path) => {
    mkdirSync(path);
  },
  rmdir: async (path) => rmdirSync(path),
  rename: async (from, to) => renameSync(from, to),
  link: async (from, to) => linkSync(from, to),
  unlink: async (path) => unlinkSync(path),
  open: async (path, flags, mode) =>
    new NodeFsHandle(
      opensAtOnce(flags) ? openSync(path, flags, mode) : await openAsync(path, flags, mode),
    ),
  write: async (handle, bytes, position) => {
    if (handle instanceof NodeFsHandle && position === undefined) handle.atStart = false;
    let offset = 0;
    while (offset < bytes.length) {
      const length = Math.min(bytes.length - offset, INLINE_BYTES);
      const at = position === undefined ? null : position + offset;
      offset +=
        bytes.length <= INLINE_BYTES
          ? writeSync(handle.fd, bytes, offset, length, at)
          : (await writeAsync(handle.fd, bytes, offset, length, at)).bytesWritten;
    }
  },
  read: (handle) => readAll(handle),
  readAt: async (handle, length, position) => {
    const buffer = Buffer.allocUnsafe(length);
    let total = 0;
    while (total < length) {
      const slice = Math.min(length - total, POOL_READ_BYTES);
      const read =
        length <= INLINE_BYTES
          ? readSync(handle.fd, buffer, total, slice, position + total)
          : (await readAsync(handle.fd, buffer, total, slice, position + total)).bytesRead;
      total += read;
      if (read < slice) break;
    }
    return buffer.subarray(0, total);
  },
  truncate: async (handle, length) => ftruncateSync(handle.fd, length),
  fstat: async (handle) => fstatSync(handle.fd, { bigint: true }),
  chmod: async (handle, mode) => fchmodSync(handle.fd, mode),
  sync: (handle) => fsyncAsync(handle.fd),
  close: async (handle) => closeSync(handle.fd),
  syncDir: async (path) => {
    // O_DIRECTORY: anything else at the path (a FIFO that would hold this thread) fails at once.
    const fd = openSync(path, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      await fsyncAsync(fd);
    } finally {
      closeSync(fd);
    }
  },
};
