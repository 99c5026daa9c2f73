import { lstat } from 'node:fs/promises';
import { errnoCode } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import { formatSize } from '../files/index.js';
import { parseSpacePath } from '../space/index.js';
import type { ContentStore } from '../store/index.js';
import { MAX_IGNORE_FILE_BYTES } from './ignore-rules.js';
import type { JobScope } from './search-jobs.js';
import type { SearchLimits, WalkStart } from './space-walk.js';

const isRoot = (path: string | undefined) =>
  path === undefined ||
  path.trim() === '' ||
  (/^[./\\]+$/u.test(path.trim()) && !path.includes('..'));

/**
 * Where a search tool's `path` parameter points: the space root when absent or `.`, a folder or
 * file of the space, or an outside material named by its `repa:material/<id>` identity.
 */
export async function resolveWalkStart(
  store: ContentStore,
  path: string | undefined,
): Promise<WalkStart> {
  if (isRoot(path)) return { target: '', absolutePath: store.root, outside: false, folder: true };
  const given = path as string;
  const location = given.startsWith('repa:')
    ? await store.locate(given)
    : await store.space.canonical(parseSpacePath(given));
  let folder: boolean;
  try {
    const stats = await lstat(location.absolutePath);
    if (!stats.isDirectory() && !stats.isFile()) {
      throw new RepaError(
        'invalid_request',
        `${JSON.stringify(given)} is not a regular file or folder.`,
      );
    }
    folder = stats.isDirectory();
  } catch (error) {
    if (RepaError.isInstance(error)) throw error;
    const code = errnoCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new RepaError('not_found', `There is nothing at ${JSON.stringify(given)}.`, {
        fix: 'Use ls or find to see what the space holds.',
      });
    }
    // Never the absolute path the system's message holds: the address as the model gave it.
    throw new RepaError(
      'io_error',
      `Checking ${JSON.stringify(given)} failed (${code ?? String(error)}).`,
      { cause: error, ...(code === undefined ? {} : { details: { errno: code } }) },
    );
  }
  return { ...location, folder };
}

function formatMillis(millis: number): string {
  return millis % 1000 === 0 ? `${millis / 1000} s` : `${millis} ms`;
}

/** What a search job needs besides its query: where it walks, its bounds and their reasons. */
export async function jobScope(
  store: ContentStore,
  start: WalkStart,
  includeIgnored: boolean,
  limits: SearchLimits,
): Promise<JobScope> {
  return {
    root: store.root,
    // Pi's agent dir and Repa's app dir inside the space are never listed or searched (design R69).
    hidden: await store.space.places.hiddenInside(),
    start,
    includeIgnored,
    limits,
    reasons: {
      entries: `${limits.maxEntries} entries visited`,
      time: `${formatMillis(limits.maxMillis)} of searching`,
      bytes: `${formatSize(limits.maxBytes)} of files read`,
      ignoreTooLarge: `larger than ${formatSize(MAX_IGNORE_FILE_BYTES)}`,
    },
  };
}

/** Where a walk of the whole space starts. */
export function spaceRoot(root: string): WalkStart {
  return { target: '', absolutePath: root, outside: false, folder: true };
}
