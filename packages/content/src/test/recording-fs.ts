import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';

// The file system layers and file times the ContentStore tests use.

/**
 * The real file system, recording the paths opened and every fsync of a file (by path, once done).
 * With `holdLog`, fsyncs of the identity log wait until `release()`.
 */
export function recordingFs({ holdLog = false } = {}) {
  const opened: string[] = [];
  const synced: string[] = [];
  const started: string[] = [];
  const paths = new Map<number, string>();
  let release = () => {};
  const gate = holdLog ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const fs: FsLayer = {
    ...nodeFsLayer,
    open: async (path, flags, mode) => {
      opened.push(path);
      const handle = await nodeFsLayer.open(path, flags, mode);
      paths.set(handle.fd, path);
      return handle;
    },
    sync: async (handle) => {
      const path = paths.get(handle.fd) ?? '?';
      started.push(path);
      if (path.endsWith('identities.log')) await gate;
      await nodeFsLayer.sync(handle);
      synced.push(path);
    },
  };
  return { fs, opened, synced, started, release: () => release() };
}

/** Sets a file's times a minute into the past, as for any file not touched in the last seconds. */
export async function settle(root: string, path: string): Promise<void> {
  const past = new Date(Date.now() - 60_000);
  await utimes(join(root, path), past, past);
}
