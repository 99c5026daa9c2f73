import type { BigIntStats } from 'node:fs';
import { constants } from 'node:fs';
import {
  type FileHandle,
  link,
  lstat,
  mkdir,
  open,
  readdir,
  readFile,
  realpath,
  rename,
  rmdir,
  unlink,
} from 'node:fs/promises';

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
  open(path: string, flags: string | number, mode?: number): Promise<FileHandle>;
  write(handle: FileHandle, bytes: Uint8Array): Promise<void>;
  read(handle: FileHandle): Promise<Buffer>;
  fstat(handle: FileHandle): Promise<BigIntStats>;
  chmod(handle: FileHandle, mode: number): Promise<void>;
  sync(handle: FileHandle): Promise<void>;
  close(handle: FileHandle): Promise<void>;
  /** Flushes a directory's entries (renames, new and removed names) to disk. */
  syncDir(path: string): Promise<void>;
}

/**
 * Flags for reading a file without following a symlink in its last component. `O_NONBLOCK` makes
 * opening a FIFO or a device return at once (so its type can be checked with `fstat`); it has no
 * effect on regular files.
 */
export const READ_NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Flags for reading a file through symlinks (outside materials, Repa's data files); see {@link READ_NO_FOLLOW}. */
export const READ_FOLLOW = constants.O_RDONLY | constants.O_NONBLOCK;

/** Flags for creating a new file that must not exist yet (never follows a symlink). */
export const CREATE_EXCLUSIVE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL;

/** The real file system. */
export const nodeFsLayer: FsLayer = {
  lstat: (path) => lstat(path, { bigint: true }),
  realpath: (path) => realpath(path),
  readFile: (path) => readFile(path),
  readdir: (path) => readdir(path),
  mkdir: async (path) => {
    await mkdir(path);
  },
  rmdir: (path) => rmdir(path),
  rename: (from, to) => rename(from, to),
  link: (from, to) => link(from, to),
  unlink: (path) => unlink(path),
  open: (path, flags, mode) => open(path, flags, mode),
  write: async (handle, bytes) => {
    let offset = 0;
    while (offset < bytes.length) {
      const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset);
      offset += bytesWritten;
    }
  },
  read: (handle) => handle.readFile(),
  fstat: (handle) => handle.stat({ bigint: true }),
  chmod: (handle, mode) => handle.chmod(mode),
  sync: (handle) => handle.sync(),
  close: (handle) => handle.close(),
  syncDir: async (path) => {
    const handle = await open(path, constants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
};
