import { type FsLayer, nodeFsLayer } from '../fs-layer.js';

/** An {@link FsLayer} for fault-injection tests, with the calls it failed. */
export interface FailingFs {
  /** The real file system, except that every call of the failing method throws. */
  fs: FsLayer;
  /** The name of the method once per failed call, in order. */
  failed: string[];
}

/** The real file system, except that every call of `method` fails with errno `code` (e.g. `'EIO'`). */
export function failingFs(method: keyof FsLayer, code: string): FailingFs {
  const failed: string[] = [];
  const fail = async () => {
    failed.push(method);
    throw Object.assign(new Error(`${code}: injected failure of ${method}`), { code });
  };
  return { fs: { ...nodeFsLayer, [method]: fail }, failed };
}

/**
 * The real file system, recording the folder of each `syncDir` that succeeded, in order; the first
 * call for `failOnce` (when given) fails with EIO instead.
 */
export function recordingSyncDirFs(failOnce?: string): { fs: FsLayer; synced: string[] } {
  const synced: string[] = [];
  let armed = failOnce !== undefined;
  const syncDir = async (path: string) => {
    if (armed && path === failOnce) {
      armed = false;
      throw Object.assign(new Error(`EIO: injected failure of syncDir ${path}`), { code: 'EIO' });
    }
    await nodeFsLayer.syncDir(path);
    synced.push(path);
  };
  return { fs: { ...nodeFsLayer, syncDir }, synced };
}
