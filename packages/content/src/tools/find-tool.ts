import { createFindToolDefinition, type ToolDefinition } from '@earendil-works/pi-coding-agent';
import { Type } from 'typebox';
import { compileGlob } from '../search/index.js';
import {
  type ContentSearchDetails,
  defineSearchTool,
  INCLUDE_IGNORED,
  identityLines,
  searchPathParameter,
  searchResult,
} from './search-tool.js';
import { sharedParameters } from './shared-parameters.js';
import type { ContentToolsOptions } from './tool-options.js';

/** Details of a `find` result. */
export interface ContentFindDetails extends ContentSearchDetails {
  /** The files found: space-relative path and identity where one exists. */
  files: { path: string; identity?: string }[];
  /** The limit, when it cut the results. */
  resultLimitReached?: number;
}

const DEFAULT_LIMIT = 1000;

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
  return defineSearchTool<typeof parameters, ContentFindDetails>(options, {
    ...base,
    description: base.description.replace(
      'relative to the search directory',
      'relative to the space root, with repa:document identities',
    ),
    parameters,
    fileFix: 'Give the folder to search in as path, or leave it out to search the whole space.',
    async search(params, openWalk) {
      // Checked here so a bad glob fails before the walk starts; the worker compiles it again.
      compileGlob(params.pattern, 'pattern', { smartCase: true });
      const walk = await openWalk(params);
      const limit = Math.max(1, params.limit ?? DEFAULT_LIMIT);
      const { entries, report } = await walk.run({ kind: 'find', glob: params.pattern, limit });
      const identityOf = await store.identityLookup();
      const files: ContentFindDetails['files'] = [];
      const details: ContentFindDetails = { files };
      if (entries.length > limit) details.resultLimitReached = limit;
      for (const entry of entries.slice(0, limit)) {
        const identity = identityOf(entry.target);
        files.push(identity === undefined ? { path: entry.path } : { path: entry.path, identity });
      }
      if (files.length === 0) {
        return searchResult(['No files found matching pattern'], [], report, details);
      }
      const notices =
        details.resultLimitReached === undefined
          ? []
          : [`${limit} results limit reached. Use limit=${limit * 2} for more, or refine pattern`];
      return searchResult(
        [...files.map((file) => file.path), ...identityLines(files)],
        notices,
        report,
        details,
      );
    },
  });
}
