import { createLsToolDefinition, type ToolDefinition } from '@earendil-works/pi-coding-agent';
import { Type } from 'typebox';
import { formatSize } from '../files/index.js';
import {
  type ContentSearchDetails,
  defineSearchTool,
  INCLUDE_IGNORED,
  searchPathParameter,
  searchResult,
} from './search-tool.js';
import { sharedParameters } from './shared-parameters.js';
import type { ContentToolsOptions } from './tool-options.js';

/** Details of an `ls` result. */
export interface ContentLsDetails extends ContentSearchDetails {
  /** The folder listed, relative to the space root (`''`: the root). */
  folder: string;
  /** The limit, when more entries exist than were shown. */
  entryLimitReached?: number;
}

const DEFAULT_LIMIT = 500;

/**
 * Pi's `ls` (parameters, sorting, limit and truncation) over one folder of the space, through the
 * space's scope rules; files show their size.
 */
export function createContentLsTool(options: ContentToolsOptions): ToolDefinition {
  const { store } = options;
  const base = createLsToolDefinition(store.root);
  const parameters = sharedParameters(base.parameters, () =>
    Type.Object({
      path: searchPathParameter('Folder to list'),
      limit: base.parameters.properties.limit,
      includeIgnored: INCLUDE_IGNORED,
    }),
  );
  return defineSearchTool<typeof parameters, ContentLsDetails>(options, {
    ...base,
    description: base.description.replace(
      "with '/' suffix for directories.",
      "with '/' suffix for directories and each file's size.",
    ),
    parameters,
    fileFix: 'Use read to see a file, or ls its folder.',
    async search(params, openWalk) {
      const walk = await openWalk(params);
      const { start } = walk;
      const limit = Math.max(1, params.limit ?? DEFAULT_LIMIT);
      const { entries, report } = await walk.run({ kind: 'ls', limit });
      // In name order already (case-insensitive), the shown files with their size.
      const name = (path: string) => path.slice(path.lastIndexOf('/') + 1);
      const shown = entries.slice(0, limit);
      const lines = shown.map((entry) => {
        const shownName = `${name(entry.path)}${entry.folder ? '/' : ''}`;
        if (entry.problem !== undefined) return `${shownName} (cannot be opened: ${entry.problem})`;
        return entry.size === undefined ? shownName : `${shownName} (${formatSize(entry.size)})`;
      });
      const details: ContentLsDetails = { folder: start.target };
      const notices: string[] = [];
      if (entries.length > limit) {
        notices.push(
          `${limit} entries limit reached; ${entries.length - limit} more. Use limit=${limit * 2} for more`,
        );
        details.entryLimitReached = limit;
      }
      if (lines.length === 0) lines.push('(empty directory)');
      return searchResult(lines, notices, report, details);
    },
  });
}
