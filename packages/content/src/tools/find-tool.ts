import { createFindToolDefinition, type ToolDefinition } from '@earendil-works/pi-coding-agent';
import { RepaError } from '@repa/protocol';
import { Type } from 'typebox';
import { compileGlob, resolveWalkStart, SpaceWalk, startEntry } from '../search/index.js';
import {
  type ContentSearchDetails,
  INCLUDE_IGNORED,
  identityLines,
  SEARCH_SCOPE,
  searchLimitsOf,
  searchPathParameter,
  searchResult,
} from './search-result.js';
import { sharedParameters } from './shared-parameters.js';
import { cancelledCall, toolError } from './tool-errors.js';
import type { ContentToolsOptions } from './tool-options.js';

/** Details of a `find` result. */
export interface ContentFindDetails extends ContentSearchDetails {
  /** The files found: space-relative path and identity where one exists. */
  files: { path: string; identity?: string }[];
  /** The limit, when it cut the results. */
  resultLimitReached?: number;
}

const DEFAULT_LIMIT = 1000;

/** The path of `path` below the folder `base` (`''`: the root). */
export function below(base: string, path: string): string {
  return base === '' ? path : path.slice(base.length + 1);
}

/**
 * Pi's `find` (parameters, limit, truncation) as an in-process walk of the space through its scope
 * rules (no fd): a glob over file paths, each result named by its space-relative path.
 */
export function createContentFindTool(options: ContentToolsOptions): ToolDefinition {
  const { store } = options;
  const base = createFindToolDefinition(store.root);
  const parameters = sharedParameters(base.parameters, () =>
    Type.Object({
      pattern: base.parameters.properties.pattern,
      path: searchPathParameter('Folder to search in'),
      limit: base.parameters.properties.limit,
      includeIgnored: INCLUDE_IGNORED,
    }),
  );
  const tool: ToolDefinition<typeof parameters, ContentFindDetails> = {
    ...base,
    description: `${base.description.replace(
      'relative to the search directory',
      'relative to the space root, with their repa:document identity where they have one',
    )}${SEARCH_SCOPE}`,
    parameters,
    async execute(_toolCallId, params, signal) {
      if (signal?.aborted) throw toolError(cancelledCall());
      try {
        const matches = compileGlob(params.pattern, 'pattern');
        const start = await resolveWalkStart(store, params.path);
        if (!start.folder) {
          throw new RepaError('invalid_request', `${params.path} is a file, not a folder.`, {
            fix: 'Give the folder to search in as path, or leave it out to search the whole space.',
          });
        }
        const limit = Math.max(1, params.limit ?? DEFAULT_LIMIT);
        const walk = new SpaceWalk(store, {
          includeIgnored: params.includeIgnored ?? false,
          limits: searchLimitsOf(options),
          signal,
        });
        const identityOf = await store.identityLookup();
        const files: ContentFindDetails['files'] = [];
        const details: ContentFindDetails = { files };
        for await (const entry of walk.files(startEntry(start))) {
          if (!matches(below(start.target, entry.path)) && !matches(entry.path)) continue;
          if (files.length >= limit) {
            details.resultLimitReached = limit;
            break;
          }
          const identity = identityOf(entry.target);
          files.push(
            identity === undefined ? { path: entry.path } : { path: entry.path, identity },
          );
        }
        if (files.length === 0) {
          return searchResult(['No files found matching pattern'], [], walk.report, details);
        }
        const notices =
          details.resultLimitReached === undefined
            ? []
            : [
                `${limit} results limit reached. Use limit=${limit * 2} for more, or refine pattern`,
              ];
        return searchResult(
          [...files.map((file) => file.path), ...identityLines(files)],
          notices,
          walk.report,
          details,
        );
      } catch (error) {
        throw toolError(error);
      }
    },
  };
  return tool as unknown as ToolDefinition;
}
