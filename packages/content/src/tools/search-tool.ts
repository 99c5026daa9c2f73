import {
  type AgentToolResult,
  DEFAULT_MAX_BYTES,
  defineTool,
  type ToolDefinition,
  type TruncationResult,
  truncateHead,
} from '@earendil-works/pi-coding-agent';
import { RepaError } from '@repa/protocol';
import { type Static, type TSchema, Type } from 'typebox';
import { formatSize } from '../files/index.js';
import {
  DEFAULT_SEARCH_LIMITS,
  type JobScope,
  jobScope,
  MAX_DEPTH,
  resolveWalkStart,
  runInWorker,
  type SearchAnswer,
  type SearchLimits,
  type SearchQuery,
  type WalkReport,
  type WalkStart,
} from '../search/index.js';
import { cancelledCall, toolError } from './tool-errors.js';
import type { ContentToolsOptions } from './tool-options.js';

/** What `ls`, `find` and `grep` add to Pi's details: why a walk stopped early and what it skipped. */
export interface ContentSearchDetails {
  /** Pi's byte truncation of the output, when it applied. */
  truncation?: TruncationResult;
  /** Why the walk stopped before covering everything (entries or bytes bound), if it did. */
  stoppedEarly?: string;
  /** Entries left out because `.gitignore`, `node_modules` or `.git` covers them. */
  ignored?: number;
  /** Symlinks not followed because they leave the space. */
  symlinksLeaving?: number;
  /** FIFOs, sockets and devices skipped without opening them. */
  special?: number;
  /** Folders not entered: nested too deep, or a path longer than the system takes. */
  tooDeep?: { count: number; first: string };
  /**
   * Files and folders not searched because no path of the space names them (a name that is not
   * UTF-8, or holds a control character or a `\`); the first shown escaped. `ls` lists them, with why.
   */
  unnamed?: { count: number; first: string };
  /** `.gitignore` files not applied (the first few, space-relative) and why; `count` in all. */
  ignoreFilesNotApplied?: { count: number; files: { path: string; reason: string }[] };
}

/** The `includeIgnored` parameter of the search tools. */
export const INCLUDE_IGNORED = Type.Optional(
  Type.Boolean({
    description: 'Include .gitignored paths, node_modules and .git (default: false; .repa never)',
  }),
);

/** The `path` parameter of `ls`, `find` and `grep`. */
export function searchPathParameter(what: string) {
  return Type.Optional(
    Type.String({
      description: `${what}, relative to the space root (default: the whole space)`,
    }),
  );
}

/** The tool options' search bounds with defaults filled in. */
function searchLimitsOf(options: ContentToolsOptions): SearchLimits {
  return { ...DEFAULT_SEARCH_LIMITS, ...options.searchLimits };
}

/** Pi's byte truncation plus the notices of a search result, as one text and its details. */
export function searchResult<T extends ContentSearchDetails>(
  lines: readonly string[],
  notices: string[],
  report: WalkReport,
  details: T,
): { content: [{ type: 'text'; text: string }]; details: T } {
  const truncation = truncateHead(lines.join('\n'), { maxLines: Number.MAX_SAFE_INTEGER });
  let text = truncation.content;
  if (truncation.truncated) {
    notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
    details.truncation = truncation;
  }
  if (report.stopped !== undefined) {
    notices.push(
      `Stopped early: ${report.stopped} (the per-call bound); narrow the path or the pattern to see the rest`,
    );
    details.stoppedEarly = report.stopped;
  }
  if (report.ignored > 0) {
    notices.push(
      `${report.ignored} ignored entr${report.ignored === 1 ? 'y' : 'ies'} skipped (.gitignore, node_modules, .git); includeIgnored=true includes them`,
    );
    details.ignored = report.ignored;
  }
  if (report.symlinksLeaving > 0) {
    notices.push(`${report.symlinksLeaving} symlink(s) leaving the space not followed`);
    details.symlinksLeaving = report.symlinksLeaving;
  }
  if (report.special > 0) {
    notices.push(`${report.special} FIFO(s), socket(s) or device(s) skipped`);
    details.special = report.special;
  }
  if (report.tooDeep > 0) {
    const first = report.firstTooDeep ?? '';
    notices.push(
      `${report.tooDeep} folder(s) nested too deep skipped (more than ${MAX_DEPTH} levels, or a path longer than the system allows), the first: ${first}`,
    );
    details.tooDeep = { count: report.tooDeep, first };
  }
  if (report.unnamed > 0) {
    const first = report.firstUnnamed ?? '';
    notices.push(
      `${report.unnamed} file(s) or folder(s) not searched because their names cannot be used in a path (not UTF-8, or a control character or backslash), the first: ${first}; ls lists them with why`,
    );
    details.unnamed = { count: report.unnamed, first };
  }
  const notApplied = report.ignoreFilesNotApplied;
  if (notApplied.length > 0) {
    const named = notApplied.map((file) => `${file.path} (${file.reason})`).join(', ');
    const more = report.ignoreFilesNotAppliedCount - notApplied.length;
    notices.push(
      `.gitignore file(s) not applied, so the paths they name are included: ${named}${more > 0 ? ` and ${more} more` : ''}`,
    );
    details.ignoreFilesNotApplied = { count: report.ignoreFilesNotAppliedCount, files: notApplied };
  }
  if (notices.length > 0) text += `\n\n[${notices.join('. ')}]`;
  return { content: [{ type: 'text', text }], details };
}

/** The `Identities:` block that follows the hits: each file's identity, where it has one. */
export function identityLines(files: readonly { path: string; identity?: string }[]): string[] {
  const seen = new Map<string, string>();
  for (const file of files) if (file.identity !== undefined) seen.set(file.path, file.identity);
  if (seen.size === 0) return [];
  return ['', 'Identities:', ...[...seen].map(([path, identity]) => `${path} ${identity}`)];
}

/** A search's walk of the space: where it starts, the bounds it keeps, and how to run it. */
export interface SearchWalk {
  start: WalkStart;
  limits: SearchLimits;
  /** Why a search stopped early at each of its bounds (as the result says it). */
  reasons: JobScope['reasons'];
  /** The call's signal: a search gives up once it is aborted. */
  signal?: AbortSignal | undefined;
  /** Runs the walk with `query` in the search worker. */
  run(query: SearchQuery): Promise<SearchAnswer>;
}

/** Opens the walk of one search from the call's `path` and `includeIgnored`. */
export type OpenWalk = (scope: { path?: string; includeIgnored?: boolean }) => Promise<SearchWalk>;

/** A search tool's definition: Pi's fields, with `search` in place of `execute`. */
export interface SearchToolDefinition<
  TParams extends TSchema,
  TDetails extends ContentSearchDetails,
> extends Omit<ToolDefinition<TParams, TDetails>, 'execute'> {
  /** For a tool that searches folders only: the fix of the `invalid_request` error for a file. */
  fileFix?: string;
  /** The tool's own search; it opens its walk of the space with `openWalk`. */
  search(params: Static<TParams>, openWalk: OpenWalk): Promise<AgentToolResult<TDetails>>;
}

/**
 * A search tool (`ls`, `find`, `grep`) for Pi: a call cancelled before it starts fails with
 * `cancelled`, and every failure becomes a tool error. `openWalk` resolves `path` through the
 * space's rules (a file is refused when `fileFix` is set) and starts a bounded walk from there.
 */
export function defineSearchTool<TParams extends TSchema, TDetails extends ContentSearchDetails>(
  options: ContentToolsOptions,
  { fileFix, search, ...definition }: SearchToolDefinition<TParams, TDetails>,
): ToolDefinition {
  const { store } = options;
  return defineTool<TParams, TDetails>({
    ...definition,
    async execute(_toolCallId, params, signal) {
      if (signal?.aborted) throw toolError(cancelledCall());
      try {
        return await search(params, async ({ path, includeIgnored }) => {
          const start = await resolveWalkStart(store, path);
          if (!start.folder && fileFix !== undefined) {
            throw new RepaError('invalid_request', `${path} is a file, not a folder.`, {
              fix: fileFix,
            });
          }
          const limits = searchLimitsOf(options);
          const scope = await jobScope(store, start, includeIgnored ?? false, limits);
          const run = (query: SearchQuery) => runInWorker({ ...scope, ...query }, signal);
          return { start, limits, reasons: scope.reasons, signal, run };
        });
      } catch (error) {
        throw toolError(error);
      }
    },
  });
}
