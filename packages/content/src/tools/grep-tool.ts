import {
  createGrepToolDefinition,
  formatSize,
  type ToolDefinition,
  truncateLine,
} from '@earendil-works/pi-coding-agent';
import { RepaError } from '@repa/protocol';
import { Type } from 'typebox';
import { contentText, type DocumentText, isDocumentName, partOfLine } from '../documents/index.js';
import {
  compileGlob,
  compileLinePattern,
  readForSearch,
  startEntry,
  type WalkEntry,
} from '../search/index.js';
import {
  below,
  type ContentSearchDetails,
  defineSearchTool,
  INCLUDE_IGNORED,
  identityLines,
  SEARCH_SCOPE,
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
/** Larger documents are skipped by `grep` (their text is extracted, and cached, to search it). */
const MAX_DOCUMENT_BYTES = 128 * 1024 * 1024;
/** Files are matched in slices of about this many characters (cut at a line end). */
const SLICE_CHARS = 256 * 1024;
/** Characters two pieces of a longer line share, so a match up to this long is never cut. */
const LONG_LINE_OVERLAP = 4096;
/** Files read at once. */
const READ_AHEAD = 32;

interface FileHit {
  path: string;
  identity?: string;
  line: number;
  lines: readonly string[];
  /** The page (or chapter) of a hit in a paged document. */
  page?: number;
  unit?: 'page' | 'chapter';
}

/**
 * Pi's `grep` (parameters, output lines, limits, truncation) searching in process, without
 * ripgrep: a bounded walk of the space through its scope rules, RE2 matching (linear time) in
 * slices with a time box per file, binary files skipped. A hit is not a read: nothing is observed.
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
            'Folder or file to search, relative to the space root (default: the whole space); a granted outside material by its repa:material/<id> identity',
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
    description: `${base.description.replace(
      'with file paths and line numbers.',
      "with file paths relative to the space root and line numbers, and the files' repa:document identities where they have one. PDFs, Word documents, EPUBs and web pages are searched in their text as read shows it; a hit in a PDF or EPUB starts with its page (or chapter). Regular expressions use RE2 syntax (as ripgrep). A hit is not a read: read the file before editing it.",
    )}${SEARCH_SCOPE}`,
    parameters,
    async search(params, openWalk) {
      const pattern = compileLinePattern(params.pattern, params);
      const glob = params.glob === undefined ? undefined : compileGlob(params.glob, 'glob');
      const { start, walk, limits } = await openWalk(params);
      const identityOf = await store.identityLookup();
      const limit = Math.max(1, params.limit ?? DEFAULT_LIMIT);
      const hits: FileHit[] = [];
      const skippedFiles: NonNullable<ContentGrepDetails['skippedFiles']> = [];
      let bytesRead = 0;

      const searchFile = async (entry: WalkEntry, text: string, document?: DocumentText) => {
        const identity = start.outside ? start.identity : identityOf(entry.target);
        const path = start.outside ? (start.identity ?? entry.path) : entry.path;
        const pageOf = (line: number) =>
          document?.unit === undefined
            ? {}
            : { page: partOfLine(document, line), unit: document.unit };
        const normalised = text.includes('\r') ? text.replace(/\r\n?/gu, '\n') : text;
        const began = performance.now();
        let allLines: string[] | undefined;
        let first = 1;
        for (let from = 0; from < normalised.length && hits.length < limit; ) {
          if (performance.now() - began >= limits.matchMillisPerFile) {
            skippedFiles.push({ path, reason: 'too slow' });
            return;
          }
          const cut = normalised.indexOf('\n', from + SLICE_CHARS);
          let to = cut < 0 ? normalised.length : cut;
          if (to - from > 2 * SLICE_CHARS) {
            // A line longer than a slice: the slice ends before it, or it is matched in pieces.
            const before = normalised.lastIndexOf('\n', from + SLICE_CHARS);
            if (before >= from) to = before;
            else {
              const end = normalised.indexOf('\n', from);
              const lineEnd = end < 0 ? normalised.length : end;
              longLines += 1;
              if (await searchLongLine(normalised, from, lineEnd, began)) {
                allLines ??= normalised.split('\n');
                hits.push({
                  path,
                  ...(identity === undefined ? {} : { identity }),
                  line: first,
                  lines: allLines,
                  ...pageOf(first),
                });
              }
              if (performance.now() - began >= limits.matchMillisPerFile) continue;
              first += 1;
              from = lineEnd + 1;
              continue;
            }
          }
          const slice = normalised.slice(from, to);
          if (pattern.test(slice)) {
            allLines ??= normalised.split('\n');
            const sliceLines = slice.split('\n');
            for (let index = 0; index < sliceLines.length && hits.length < limit; index++) {
              if (!pattern.test(sliceLines[index] as string)) continue;
              hits.push({
                path,
                ...(identity === undefined ? {} : { identity }),
                line: first + index,
                lines: allLines,
                ...pageOf(first + index),
              });
            }
            first += sliceLines.length;
          } else {
            first += countLines(slice);
          }
          from = to + 1;
          await walk.breathe();
        }
      };

      let longLines = 0;
      /** Whether one long line holds a match, tested in overlapping pieces of a slice each. */
      const searchLongLine = async (text: string, from: number, to: number, began: number) => {
        for (let start = from; start < to; start += SLICE_CHARS - LONG_LINE_OVERLAP) {
          if (performance.now() - began >= limits.matchMillisPerFile) return false;
          if (pattern.test(text.slice(start, Math.min(to, start + SLICE_CHARS)))) return true;
          await walk.breathe();
          if (start + SLICE_CHARS >= to) break;
        }
        return false;
      };

      const searchBatch = async (batch: WalkEntry[]) => {
        const reads = await Promise.all(
          batch.map((entry) =>
            readForSearch(entry.absolutePath, {
              follow: start.outside,
              ...(isDocumentName(entry.path)
                ? { maxBytes: MAX_DOCUMENT_BYTES, binary: true }
                : { maxBytes: limits.maxFileBytes }),
            }),
          ),
        );
        for (const [index, read] of reads.entries()) {
          const entry = batch[index] as WalkEntry;
          if (hits.length >= limit || walk.report.stopped !== undefined) return;
          if ('skipped' in read) {
            if (read.skipped === 'special') walk.report.special += 1;
            if (read.skipped === 'too large')
              skippedFiles.push({ path: entry.path, reason: 'too large' });
            continue;
          }
          bytesRead += read.bytes.length;
          if (bytesRead > limits.maxBytes) {
            walk.stop(`${formatSize(limits.maxBytes)} of files read`);
            return;
          }
          if (!isDocumentName(entry.path)) {
            await searchFile(entry, read.bytes.toString('utf8'));
            continue;
          }
          // A document is searched in its text, as `read` shows it (spec R60).
          let found: Awaited<ReturnType<typeof contentText>>;
          try {
            found = await contentText(store, read.bytes, entry.target, {
              shown: JSON.stringify(entry.path),
            });
          } catch (error) {
            if (!RepaError.isInstance(error)) throw error;
            if (error.code !== 'unsupported_content') {
              skippedFiles.push({ path: entry.path, reason: 'unreadable', message: error.message });
            }
            continue;
          }
          await searchFile(entry, found.text, found.document);
        }
      };

      if (!start.folder) {
        await searchBatch([{ ...startEntry(start), path: start.target }]);
      } else {
        let batch: WalkEntry[] = [];
        for await (const entry of walk.files(startEntry(start))) {
          if (glob && !glob(below(start.target, entry.path)) && !glob(entry.path)) continue;
          batch.push(entry);
          if (batch.length < READ_AHEAD) continue;
          await searchBatch(batch);
          batch = [];
          if (hits.length >= limit || walk.report.stopped !== undefined) break;
        }
        if (hits.length < limit && walk.report.stopped === undefined) await searchBatch(batch);
      }
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
      const tooLarge = skippedFiles.filter((file) => file.reason === 'too large');
      if (tooLarge.length > 0) {
        notices.push(
          `Skipped as larger than ${formatSize(limits.maxFileBytes)}: ${tooLarge.map((file) => file.path).join(', ')}`,
        );
      }
      if (longLines > 0) {
        notices.push(
          `${longLines} line(s) longer than ${SLICE_CHARS} characters were searched in pieces of that size overlapping by ${LONG_LINE_OVERLAP}: a longer match across a piece's edge is missed, and ^ and $ also match at an edge`,
        );
        details.longLines = longLines;
      }
      if (hits.length === 0) {
        return searchResult(['No matches found'], notices, walk.report, details);
      }
      const context = params.context && params.context > 0 ? Math.floor(params.context) : 0;
      const lines: string[] = [];
      for (const hit of hits) {
        const from = Math.max(1, hit.line - context);
        const to = Math.min(hit.lines.length, hit.line + context);
        for (let current = from; current <= to; current++) {
          const { text, wasTruncated } = truncateLine(hit.lines[current - 1] ?? '');
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
      return searchResult([...lines, ...identityLines(hits)], notices, walk.report, details);
    },
  });
}

function countLines(text: string): number {
  let count = 1;
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) count++;
  return count;
}
