import { stat } from 'node:fs/promises';
import {
  createLsToolDefinition,
  formatSize,
  type ToolDefinition,
} from '@earendil-works/pi-coding-agent';
import { RepaError } from '@repa/protocol';
import { Type } from 'typebox';
import { resolveWalkStart, SpaceWalk, startEntry } from '../search/index.js';
import {
  type ContentSearchDetails,
  INCLUDE_IGNORED,
  SEARCH_SCOPE,
  searchLimitsOf,
  searchPathParameter,
  searchResult,
} from './search-result.js';
import { sharedParameters } from './shared-parameters.js';
import { cancelledCall, toolError } from './tool-errors.js';
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
  const tool: ToolDefinition<typeof parameters, ContentLsDetails> = {
    ...base,
    description: `${base.description.replace(
      "with '/' suffix for directories.",
      "with '/' suffix for directories and each file's size.",
    )}${SEARCH_SCOPE}`,
    parameters,
    async execute(_toolCallId, params, signal) {
      if (signal?.aborted) throw toolError(cancelledCall());
      try {
        const start = await resolveWalkStart(store, params.path);
        if (!start.folder) {
          throw new RepaError('invalid_request', `${params.path} is a file, not a folder.`, {
            fix: 'Use read to see a file, or ls its folder.',
          });
        }
        const limit = Math.max(1, params.limit ?? DEFAULT_LIMIT);
        const walk = new SpaceWalk(store, {
          includeIgnored: params.includeIgnored ?? false,
          limits: searchLimitsOf(options),
          signal,
        });
        const folder = startEntry(start);
        const entries = await walk.list(folder, await walk.rulesAbove(folder));
        const name = (path: string) => path.slice(path.lastIndexOf('/') + 1);
        entries.sort((a, b) =>
          name(a.path).toLowerCase().localeCompare(name(b.path).toLowerCase()),
        );
        const shown = entries.slice(0, limit);
        const lines = await Promise.all(
          shown.map(async (entry) => {
            if (entry.folder) return `${name(entry.path)}/`;
            const size = await stat(entry.absolutePath).then(
              (stats) => ` (${formatSize(stats.size)})`,
              () => '',
            );
            return `${name(entry.path)}${size}`;
          }),
        );
        const details: ContentLsDetails = { folder: start.target };
        const notices: string[] = [];
        if (entries.length > limit) {
          notices.push(
            `${limit} entries limit reached; ${entries.length - limit} more. Use limit=${limit * 2} for more`,
          );
          details.entryLimitReached = limit;
        }
        if (lines.length === 0) lines.push('(empty directory)');
        return searchResult(lines, notices, walk.report, details);
      } catch (error) {
        throw toolError(error);
      }
    },
  };
  return tool as unknown as ToolDefinition;
}
