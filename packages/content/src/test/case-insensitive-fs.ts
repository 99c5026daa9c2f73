import { sep } from 'node:path';
import { type FsLayer, nodeFsLayer } from '@repa/durable-fs';

/**
 * The real filesystem seen as a case-insensitive disk below `root` (as on macOS or Windows): each
 * path component under `root` is matched to an existing entry of its folder ignoring case, so
 * `A.md` and `a.md` name the same file. `root` must be a real path.
 */
export function caseInsensitiveFs(root: string, base: FsLayer = nodeFsLayer): FsLayer {
  const fold = (name: string) => name.normalize('NFC').toUpperCase().toLowerCase();
  const resolve = async (path: string): Promise<string> => {
    if (!path.startsWith(root + sep)) return path;
    let current = root;
    const parts = path.slice(root.length + 1).split(sep);
    for (const [index, part] of parts.entries()) {
      let names: string[];
      try {
        names = await base.readdir(current);
      } catch {
        return [current, ...parts.slice(index)].join(sep);
      }
      const found = names.includes(part) ? part : names.find((name) => fold(name) === fold(part));
      current = `${current}${sep}${found ?? part}`;
    }
    return current;
  };
  return {
    ...base,
    lstat: async (path) => base.lstat(await resolve(path)),
    realpath: async (path) => base.realpath(await resolve(path)),
    readFile: async (path) => base.readFile(await resolve(path)),
    readdir: async (path) => base.readdir(await resolve(path)),
    mkdir: async (path) => base.mkdir(await resolve(path)),
    rmdir: async (path) => base.rmdir(await resolve(path)),
    rename: async (from, to) => base.rename(await resolve(from), await resolve(to)),
    unlink: async (path) => base.unlink(await resolve(path)),
    open: async (path, flags, mode) => base.open(await resolve(path), flags, mode),
    syncDir: async (path) => base.syncDir(await resolve(path)),
  };
}
