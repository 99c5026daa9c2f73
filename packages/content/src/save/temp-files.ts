import { dirname } from 'node:path';
import { CREATE_EXCLUSIVE, errnoCode, type FsLayer } from '@repa/durable-fs';

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
