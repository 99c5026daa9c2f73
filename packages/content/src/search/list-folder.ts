import { isDocumentName } from '@repa/documents';
import { RepaError } from '@repa/protocol';
import type { ContentStore } from '../store/index.js';
import { runInWorker } from './search-pool.js';
import { DEFAULT_SEARCH_LIMITS, type WalkReport } from './space-walk.js';
import { jobScope, resolveWalkStart } from './walk-start.js';

/** One entry of a listed folder. */
export interface FolderEntry {
  /** Its name. */
  name: string;
  /** Its path relative to the space root as listed (`/`-separated; a symlink's own path). */
  path: string;
  /** Whether it is a folder. */
  folder: boolean;
  /** A file's size in bytes, when it could be taken. */
  size?: number;
  /** True for a PDF, DOCX, EPUB or HTML file (read as its text, spec R60). */
  document?: true;
  /**
   * Why no path of the space names it, as opening it says (its name's bytes are not UTF-8, or hold
   * a control character or a `\`): then `name` and `path` show the name escaped (`a\nb.md`,
   * `bad\xFF.md`), and it cannot be opened or listed.
   */
  problem?: string;
}

/** One folder of the space, as {@link listSpaceFolder} gives it. */
export interface FolderListing {
  /** The folder, relative to the space root (`''`: the root). */
  folder: string;
  /** Its entries by name (case-insensitive), folders and files mixed, at most `limit`. */
  entries: FolderEntry[];
  /** How many entries were left out past `limit`. */
  more: number;
  /** What the space's rules left out (ignored, symlinks leaving, special files). */
  report: Pick<WalkReport, 'ignored' | 'symlinksLeaving' | 'special' | 'stopped'>;
}

/** The most entries one listing gives (the `limit` default). */
export const FOLDER_LIST_LIMIT = 1000;

/**
 * One folder of the space listed with the rules of the `ls` tool (in the search worker, within its
 * bounds): `.repa` never listed, symlinks followed only while they stay in the space, FIFOs and
 * devices skipped unopened, and `.gitignore`d paths, `node_modules` and `.git` skipped unless
 * `includeIgnored`. `invalid_request` for a file, `not_found` for nothing there.
 */
export async function listSpaceFolder(
  store: ContentStore,
  path: string | undefined,
  options: { limit?: number; includeIgnored?: boolean; signal?: AbortSignal } = {},
): Promise<FolderListing> {
  const start = await resolveWalkStart(store, path);
  if (start.outside || !start.folder) {
    throw new RepaError(
      'invalid_request',
      `${JSON.stringify(path)} is not a folder of the space.`,
      {
        fix: 'List a folder; read a file instead.',
      },
    );
  }
  const limit = Math.max(1, Math.min(options.limit ?? FOLDER_LIST_LIMIT, FOLDER_LIST_LIMIT));
  const scope = await jobScope(
    store,
    start,
    options.includeIgnored ?? false,
    DEFAULT_SEARCH_LIMITS,
  );
  const { entries, report } = await runInWorker({ ...scope, kind: 'ls', limit }, options.signal);
  const name = (entryPath: string) => entryPath.slice(entryPath.lastIndexOf('/') + 1);
  return {
    folder: start.target,
    entries: entries.slice(0, limit).map((entry) => ({
      name: name(entry.path),
      path: entry.path,
      folder: entry.folder,
      ...(entry.size === undefined ? {} : { size: entry.size }),
      ...(!entry.folder && isDocumentName(entry.path) ? { document: true as const } : {}),
      ...(entry.problem === undefined ? {} : { problem: entry.problem }),
    })),
    more: Math.max(0, entries.length - limit),
    report: {
      ignored: report.ignored,
      symlinksLeaving: report.symlinksLeaving,
      special: report.special,
      ...(report.stopped === undefined ? {} : { stopped: report.stopped }),
    },
  };
}
