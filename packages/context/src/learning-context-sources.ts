import { createHash } from 'node:crypto';
import { open, realpath } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';
import { errnoCode, READ_NO_FOLLOW } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';

/** The version of one source a learning context was built from. */
export interface LearningContextSourceVersion {
  /** Space-relative path (`/`-separated), or a `repa:` identity (never hashed). */
  path: string;
  /** sha256 (hex) of the bytes the context was built from; null for a `repa:` identity. */
  sha256: string | null;
  /** Byte size and modification time seen with the hash: an unchanged stat skips re-hashing. */
  size?: number | undefined;
  /** Modification time (ms) seen with the hash. */
  mtimeMs?: number | undefined;
}

/** The most bytes of a source's text kept for a build (the hash always covers the whole file). */
export const SOURCE_TEXT_LIMIT = 4 * 1024 * 1024;

/** A source's state now, compared with the version the context was built from. */
export type LearningContextSourceState = 'unchanged' | 'changed' | 'vanished' | 'unversioned';

/** One source of a learning context with its recorded version and its state now. */
export interface LearningContextSourceStatus {
  /** Space-relative path or `repa:` identity. */
  path: string;
  /** sha256 recorded when the context was written; null when none was. */
  sha256: string | null;
  /** `changed`/`vanished` since then, `unchanged`, or `unversioned` (no hash to compare). */
  state: LearningContextSourceState;
}

/** One source read for a build: its version and its text. */
export interface LearningContextSourceText {
  /** Its version (the hash of all its bytes, read in one pass with `text`). */
  version: LearningContextSourceVersion;
  /** The file's text (UTF-8, at most {@link SOURCE_TEXT_LIMIT} bytes); empty for a `repa:` identity or a missing file. */
  text: string;
  /** True when the file has more bytes than `text` holds. */
  truncated: boolean;
  /** False when the file does not exist (then `version.sha256` is null). */
  exists: boolean;
}

/**
 * Reads each source (space-relative paths only; `repa:` identities are kept unhashed) and records
 * its sha256, size and mtime. A path outside the space (absolute, `..`, through a symlink) is
 * `path_outside_space`, one in `.repa` is `protected_path`; a missing or non-regular file is
 * returned with `exists: false` and no hash.
 */
export async function readLearningContextSources(
  spaceRoot: string,
  paths: readonly string[],
): Promise<LearningContextSourceText[]> {
  const root = await realpath(spaceRoot);
  const out: LearningContextSourceText[] = [];
  for (const path of paths) {
    if (path.startsWith('repa:')) {
      out.push({ version: { path, sha256: null }, text: '', truncated: false, exists: true });
      continue;
    }
    const normalized = checkSourcePath(path);
    const read = await readSource(root, normalized);
    if (read === null || read === 'same-stat') {
      out.push({
        version: { path: normalized, sha256: null },
        text: '',
        truncated: false,
        exists: false,
      });
      continue;
    }
    out.push({
      version: {
        path: normalized,
        sha256: read.sha256,
        size: read.size,
        mtimeMs: read.mtimeMs,
      },
      text: read.head.toString('utf8'),
      truncated: read.head.length < read.size,
      exists: true,
    });
  }
  return out;
}

/**
 * Compares each recorded source with the space now: stat first, re-hashing only when size or
 * mtime differ (as the content observer does). Never throws for a missing or unsafe file: it is
 * `vanished`.
 */
export async function checkLearningContextSources(
  spaceRoot: string,
  sources: readonly string[],
  versions: readonly LearningContextSourceVersion[],
): Promise<LearningContextSourceStatus[]> {
  const root = await realpath(spaceRoot).catch(() => spaceRoot);
  const byPath = new Map(versions.map((version) => [version.path, version]));
  const out: LearningContextSourceStatus[] = [];
  for (const path of sources) {
    const version = byPath.get(path);
    if (!version || version.sha256 === null) {
      out.push({ path, sha256: null, state: 'unversioned' });
      continue;
    }
    let normalized: string;
    try {
      normalized = checkSourcePath(path);
    } catch {
      out.push({ path, sha256: version.sha256, state: 'vanished' });
      continue;
    }
    const read = await readSource(root, normalized, version).catch(() => null);
    const state: LearningContextSourceState =
      read === null
        ? 'vanished'
        : read === 'same-stat' || read.sha256 === version.sha256
          ? 'unchanged'
          : 'changed';
    out.push({ path, sha256: version.sha256, state });
  }
  return out;
}

/** The `/`-separated space-relative form of `path`; throws when it leaves the space or is Repa's. */
function checkSourcePath(path: string): string {
  const parts = path
    .replaceAll('\\', '/')
    .split('/')
    .filter((part) => part !== '' && part !== '.');
  if (isAbsolute(path) || parts.includes('..') || parts.length === 0) {
    throw new RepaError(
      'path_outside_space',
      `The source ${path} is not a path inside the space.`,
      {
        details: { path },
      },
    );
  }
  if (parts[0]?.toLowerCase() === '.repa') {
    throw new RepaError('protected_path', `The source ${path} is inside Repa's .repa folder.`, {
      details: { path },
    });
  }
  return parts.join('/');
}

/**
 * The sha256 and first bytes of a regular file inside `root` (never through a symlink leaving it),
 * hashed in one streamed pass (a large file is never held in memory), `'same-stat'`
 * when `known` has its size and mtime, or null when it does not exist.
 */
async function readSource(
  root: string,
  path: string,
  known?: LearningContextSourceVersion,
): Promise<{ sha256: string; head: Buffer; size: number; mtimeMs: number } | 'same-stat' | null> {
  const full = join(root, ...path.split('/'));
  const real = await realpath(full).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') return null;
    throw error;
  });
  if (real === null) return null;
  const inside = relative(root, real);
  if (inside === '' || inside.startsWith(`..${sep}`) || inside === '..' || isAbsolute(inside)) {
    throw new RepaError('path_outside_space', `The source ${path} leads outside the space.`, {
      details: { path },
    });
  }
  const handle = await open(real, READ_NO_FOLLOW).catch((error: unknown) => {
    if (errnoCode(error) === 'ENOENT') return null;
    throw error;
  });
  if (handle === null) return null;
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) return null;
    if (known && known.size === stats.size && known.mtimeMs === stats.mtimeMs) return 'same-stat';
    const hash = createHash('sha256');
    const head: Buffer[] = [];
    let kept = 0;
    let size = 0;
    for await (const chunk of handle.createReadStream({ autoClose: false, start: 0 })) {
      const bytes = chunk as Buffer;
      hash.update(bytes);
      size += bytes.length;
      if (kept < SOURCE_TEXT_LIMIT) {
        const part = bytes.subarray(0, SOURCE_TEXT_LIMIT - kept);
        head.push(part);
        kept += part.length;
      }
    }
    return { sha256: hash.digest('hex'), head: Buffer.concat(head), size, mtimeMs: stats.mtimeMs };
  } finally {
    await handle.close().catch(() => undefined);
  }
}
