import {
  createGrepToolDefinition,
  type ToolDefinition,
  truncateLine,
} from '@earendil-works/pi-coding-agent';
import { isDocumentName } from '@repa/documents';
import { Type } from 'typebox';
import { formatSize } from '../files/index.js';
import {
  compileGlob,
  compileLinePattern,
  type FoundEntry,
  LONG_LINE_OVERLAP,
  SLICE_CHARS,
} from '../search/index.js';
import { GREP_DOCUMENTS, MAX_DOCUMENT_BYTES, searchDocuments } from './grep-documents.js';
import {
  type ContentSearchDetails,
  defineSearchTool,
  INCLUDE_IGNORED,
  identityLines,
  searchResult,
} from './search-tool.js';
import { sharedParameters } from './shared-parameters.js';
import type { ContentToolsOptions } from './tool-options.js';

/** Details of a `grep` result. */
export interface ContentGrepDetails extends ContentSearchDetails {
  /**
   * Every matching line: the file's space-relative path, its identity where it has one, the line
   * (of a document's marked text, as `read` shows it) and, in a PDF or EPUB, its page or chapter.
   */
  hits: { path: string; identity?: string; line: number; page?: number }[];
  /**
   * Files not (fully) searched and why: `too large`, `too slow` (the per-file time box),
   * `unreadable` (a document whose text could not be extracted; `message` says why).
   */
  skippedFiles?: {
    path: string;
    reason: 'too large' | 'too slow' | 'unreadable';
    message?: string;
  }[];
  /** The limit, when it cut the matches. */
  matchLimitReached?: number;
  /** True when some lines were cut to Pi's grep line length. */
  linesTruncated?: boolean;
  /** Lines longer than a slice (256 Ki characters), searched in overlapping pieces. */
  longLines?: number;
}

const DEFAULT_LIMIT = 100;

/** How a hit's file is named: its space-relative path (an outside material's identity). */
interface FileName {
  path: string;
  identity?: string;
}

/**
 * Pi's `grep` (parameters, output lines, limits, truncation) searching in process, without
 * ripgrep: a bounded walk of the space through its scope rules, RE2 matching (linear time) in
 * slices with a time box per file, binary files skipped, all in the search worker (off the event
 * loop, synchronous reads); documents the walk meets are searched in their extracted text, with
 * the page or chapter of each hit (grep-documents.ts). A hit is not a read: nothing is observed.
 */
export function createContentGrepTool(options: ContentToolsOptions): ToolDefinition {
  const { store } = options;
  const base = createGrepToolDefinition(store.root);
  const { properties } = base.parameters;
  const parameters = sharedParameters(base.parameters, () =>
    Type.Object({
      pattern: properties.pattern,
      path: Type.Optional(
        Type.String({
          description:
            'Folder or file to search, relative to the space root (default: the whole space), or a repa:material/<id> identity',
        }),
      ),
      glob: properties.glob,
      ignoreCase: properties.ignoreCase,
      literal: properties.literal,
      context: properties.context,
      limit: properties.limit,
      includeIgnored: INCLUDE_IGNORED,
    }),
  );
  return defineSearchTool<typeof parameters, ContentGrepDetails>(options, {
    ...base,
    description: base.description.replace(
      'with file paths and line numbers.',
      'with paths relative to the space root, line numbers and repa:document identities. Documents (PDF, DOCX, EPUB, HTML) are searched in their text; a PDF or EPUB hit starts with its page (or chapter). Regexes are RE2 (no look-around or backreferences). A hit is not a read: read a file before editing it.',
    ),
    parameters,
    async search(params, openWalk) {
      // Checked here so a bad pattern or glob fails before the walk; the worker compiles them again.
      const pattern = compileLinePattern(params.pattern, params);
      if (params.glob !== undefined) compileGlob(params.glob, 'glob');
      const { start, limits, reasons, signal, run } = await openWalk(params);
      const deadline = performance.now() + limits.maxMillis;
      const limit = Math.max(1, params.limit ?? DEFAULT_LIMIT);
      const context = params.context && params.context > 0 ? Math.floor(params.context) : 0;
      const answer = await run({
        kind: 'grep',
        pattern: params.pattern,
        literal: params.literal,
        ignoreCase: params.ignoreCase,
        glob: params.glob,
        limit,
        context,
        documents: GREP_DOCUMENTS,
      });
      const { report, entries } = answer;
      const { longLines, ...found } = await searchDocuments(answer, {
        store,
        start,
        pattern,
        limit,
        context,
        limits,
        deadline,
        timeReason: reasons.time,
        signal,
      });
      const identityOf = await store.identityLookup();
      const named = entries.map((entry): FileName => {
        const path = start.outside ? (start.identity ?? entry.path) : entry.path;
        const identity = start.outside ? start.identity : identityOf(entry.target);
        return identity === undefined ? { path } : { path, identity };
      });
      const hits = found.hits.map((hit) => ({ ...hit, ...(named[hit.file] as FileName) }));
      const skippedFiles = found.skippedFiles.map(({ file, reason, message }) => ({
        path: (named[file] as FileName).path,
        reason,
        ...(message === undefined ? {} : { message }),
      }));
      const matchLimitReached = hits.length >= limit;
      const details: ContentGrepDetails = {
        hits: hits.map(({ path, identity, line, page }) => ({
          path,
          ...(identity === undefined ? {} : { identity }),
          line,
          ...(page === undefined ? {} : { page }),
        })),
        ...(skippedFiles.length > 0 ? { skippedFiles } : {}),
      };
      const notices: string[] = [];
      const tooSlow = skippedFiles.filter((file) => file.reason === 'too slow');
      if (tooSlow.length > 0) {
        notices.push(
          `Matching stopped after ${limits.matchMillisPerFile} ms in ${tooSlow.map((file) => file.path).join(', ')} (not fully searched; simplify the pattern or search those files with a narrower path)`,
        );
      }
      const unreadable = skippedFiles.filter((file) => file.reason === 'unreadable');
      if (unreadable.length > 0) {
        notices.push(
          `Not searched (their text could not be read): ${unreadable.map((file) => `${file.path} (${file.message})`).join('; ')}`,
        );
      }
      const tooLarge = found.skippedFiles.filter((file) => file.reason === 'too large');
      // Documents have their own bound (their text is extracted, not read as it is).
      for (const documents of [false, true]) {
        const these = tooLarge.filter(
          ({ file }) => isDocumentName((entries[file] as FoundEntry).path) === documents,
        );
        if (these.length === 0) continue;
        const bound = documents ? MAX_DOCUMENT_BYTES : limits.maxFileBytes;
        notices.push(
          `Skipped as larger than ${formatSize(bound)}: ${these.map(({ file }) => (named[file] as FileName).path).join(', ')}`,
        );
      }
      if (longLines > 0) {
        notices.push(
          `${longLines} line(s) longer than ${SLICE_CHARS} characters were searched in pieces of that size overlapping by ${LONG_LINE_OVERLAP}: a longer match across a piece's edge is missed, and ^ and $ also match at an edge`,
        );
        details.longLines = longLines;
      }
      if (hits.length === 0) {
        return searchResult(['No matches found'], notices, report, details);
      }
      const lines: string[] = [];
      for (const hit of hits) {
        for (const [index, line] of hit.lines.entries()) {
          const current = hit.from + index;
          const { text, wasTruncated } = truncateLine(line);
          if (wasTruncated) details.linesTruncated = true;
          // The hit's page or chapter leads its text: `lecture.pdf:57: (page 7) …`.
          const page = hit.page === undefined ? '' : `(${hit.unit} ${hit.page}) `;
          lines.push(
            current === hit.line
              ? `${hit.path}:${current}: ${page}${text}`
              : `${hit.path}-${current}- ${text}`,
          );
        }
      }
      if (matchLimitReached) {
        notices.unshift(
          `${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern`,
        );
        details.matchLimitReached = limit;
      }
      if (details.linesTruncated) {
        notices.push('Some lines truncated to 500 chars. Use read tool to see full lines');
      }
      return searchResult([...lines, ...identityLines(hits)], notices, report, details);
    },
  });
}
