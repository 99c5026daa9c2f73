import { loadHost } from '../load-host.js';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import type { HandlerParts } from './handler-parts.js';

/**
 * `files.*`: a space's files for the page's documents panel and reader, with the content tools'
 * rules (spec R60, R74). Reading a space is allowed before it is trusted (R13): trust decides what
 * its configuration does, not whether the learner may see their notes.
 */
export function filesHandlers({
  appDirectory,
}: Pick<HandlerParts, 'appDirectory'>): NamespaceHandlers<'files'> {
  return {
    'files.list': async (params) => {
      const root = params.space;
      const { listSpaceFiles } = await loadHost();
      const listing = await listSpaceFiles(root, appDirectory, params.path, params.limit);
      return {
        folder: listing.folder,
        entries: listing.entries.map((entry) => ({ ...entry })),
        more: listing.more,
        ignored: listing.report.ignored,
        symlinksLeaving: listing.report.symlinksLeaving,
      };
    },
    'files.read': async (params) => {
      const root = params.space;
      const { readSpaceFile } = await loadHost();
      return readSpaceFile(root, appDirectory, params.path);
    },
  };
}
