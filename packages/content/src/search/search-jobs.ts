import { lstatSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { type GrepHit, type GrepState, grepText } from './grep-file.js';
import { ReadBuffer, readForSearch } from './search-file.js';
import { compileGlob, compileLinePattern, type PathMatcher } from './search-patterns.js';
import {
  type SearchLimits,
  SpaceWalk,
  startEntry,
  type WalkEntry,
  type WalkOptions,
  type WalkReport,
  type WalkStart,
} from './space-walk.js';

/** What every search job names: where it walks and within which bounds. */
export interface JobScope {
  /** The space root (absolute, real). */
  root: string;
  /** Real folders inside the space never entered (Pi's agent dir, Repa's app dir). */
  hidden: string[];
  start: WalkStart;
  includeIgnored: boolean;
  limits: SearchLimits;
  reasons: WalkOptions['reasons'] & { bytes: string };
}

/** What a search asks for: one folder's entries, files by glob, lines by pattern, or changes. */
export type SearchQuery =
  | { kind: 'ls'; limit: number }
  | { kind: 'find'; glob: string; limit: number }
  | {
      kind: 'grep';
      pattern: string;
      literal?: boolean | undefined;
      ignoreCase?: boolean | undefined;
      glob?: string | undefined;
      limit: number;
      context: number;
      /**
       * Files left to the caller (documents, whose text it extracts): by their extensions (lower
       * case, with the dot); a larger one is skipped as too large.
       */
      documents?: { extensions: readonly string[]; maxBytes: number } | undefined;
    }
  | { kind: 'changed'; since: number; known: string[] };

/** One search, run by the search worker. */
export type SearchJob = JobScope & SearchQuery;

/** A file or folder in a job's answer; `size` for the files `ls` lists. */
export interface FoundEntry extends WalkEntry {
  size?: number;
}

/** The answer to a {@link SearchJob}. */
export interface SearchAnswer {
  report: WalkReport;
  /**
   * `ls`: the folder's entries by name (case-insensitive), the first `limit` files with their size;
   * `find`: the files matched (one past the limit at most); `grep`: the files hit or skipped;
   * `changed`: the files changed.
   */
  entries: FoundEntry[];
  /** `grep` only. */
  grep?: {
    hits: GrepHit[];
    skippedFiles: { file: number; reason: 'too large' | 'too slow' }[];
    longLines: number;
    /**
     * The documents met (the files the query's `documents` names), in walk order, for the caller
     * to search in their extracted text: each its index in `entries`, which orders it among hits.
     */
    documents: number[];
  };
}

/** The glob test `find` and `grep` apply: below the folder searched, or from the space root. */
function globTest(glob: PathMatcher, base: string) {
  // From the space root the two are one path: tested once.
  if (base === '') return (entry: WalkEntry) => glob(entry.path);
  return (entry: WalkEntry) => glob(entry.path.slice(base.length + 1)) || glob(entry.path);
}

/** Runs one job synchronously (in the search worker); `aborted` is checked at every entry. */
export function runSearchJob(job: SearchJob, aborted: () => boolean): SearchAnswer {
  const walk = new SpaceWalk(job.root, {
    hidden: job.hidden,
    includeIgnored: job.includeIgnored,
    limits: job.limits,
    reasons: job.reasons,
    aborted,
  });
  const root = startEntry(job.start);
  const entries: FoundEntry[] = [];
  const answer: SearchAnswer = { report: walk.report, entries };
  if (job.kind === 'ls') {
    const listed = walk.list(root, walk.rulesAbove(root));
    const name = (path: string) => path.slice(path.lastIndexOf('/') + 1).toLowerCase();
    listed.sort((a, b) => name(a.path).localeCompare(name(b.path)));
    for (const [index, entry] of listed.entries()) {
      let size: number | undefined;
      if (!entry.folder && entry.problem === undefined && index < job.limit) {
        try {
          size = statSync(entry.absolutePath).size;
        } catch {
          // Gone meanwhile: listed without a size.
        }
      }
      entries.push(size === undefined ? entry : { ...entry, size });
    }
  } else if (job.kind === 'find') {
    // fd's smart case: a pattern without capitals ignores case.
    const matches = globTest(
      compileGlob(job.glob, 'pattern', { smartCase: true }),
      job.start.target,
    );
    for (const entry of walk.files(root)) {
      if (!matches(entry)) continue;
      entries.push(entry);
      if (entries.length > job.limit) break;
    }
  } else if (job.kind === 'changed') {
    const known = new Set(job.known);
    for (const entry of walk.files(root)) {
      if (known.has(entry.target)) continue;
      try {
        if (lstatSync(entry.absolutePath).ctimeMs >= job.since) entries.push(entry);
      } catch {
        // Gone meanwhile.
      }
    }
  } else {
    answer.grep = grep(job, walk, root, entries);
  }
  return answer;
}

function grep(
  job: Extract<SearchJob, { kind: 'grep' }>,
  walk: SpaceWalk,
  root: WalkEntry,
  files: FoundEntry[],
): NonNullable<SearchAnswer['grep']> {
  const pattern = compileLinePattern(job.pattern, job);
  const prefix = literalPrefix(pattern);
  const glob =
    job.glob === undefined ? undefined : globTest(compileGlob(job.glob, 'glob'), job.start.target);
  const state: GrepState = {
    hits: [],
    limit: job.limit,
    context: job.context,
    matchMillisPerFile: job.limits.matchMillisPerFile,
    longLines: 0,
  };
  const skippedFiles: NonNullable<SearchAnswer['grep']>['skippedFiles'] = [];
  const documents: number[] = [];
  const documentExtensions = new Set(job.documents?.extensions);
  const maxDocumentBytes = job.documents?.maxBytes ?? 0;
  const buffer = new ReadBuffer();
  const { limits } = job;
  let bytesRead = 0;
  /** A document is left to the caller, its size counted among the bytes read as it will be. */
  const searchDocument = (entry: WalkEntry) => {
    let size: number;
    try {
      const stats = lstatSync(entry.absolutePath);
      if (!stats.isFile()) {
        walk.report.special += 1;
        return;
      }
      size = stats.size;
    } catch {
      return;
    }
    if (size > maxDocumentBytes) {
      skippedFiles.push({ file: files.push(entry) - 1, reason: 'too large' });
      return;
    }
    bytesRead += size;
    if (bytesRead > limits.maxBytes) {
      walk.stop(job.reasons.bytes);
      return;
    }
    documents.push(files.push(entry) - 1);
  };
  const search = (entry: WalkEntry) => {
    if (documentExtensions.has(extname(entry.path).toLowerCase())) return searchDocument(entry);
    const read = readForSearch(entry.absolutePath, { maxBytes: limits.maxFileBytes }, buffer);
    if ('skipped' in read) {
      if (read.skipped === 'special') walk.report.special += 1;
      if (read.skipped === 'too large') {
        skippedFiles.push({ file: files.push(entry) - 1, reason: 'too large' });
      }
      return;
    }
    bytesRead += read.bytes.length;
    if (bytesRead > limits.maxBytes) {
      walk.stop(job.reasons.bytes);
      return;
    }
    // A file the pattern's literal start does not occur in cannot match: it is never decoded.
    if (prefix !== undefined && read.bytes.indexOf(prefix) < 0) return;
    const hitsBefore = state.hits.length;
    const file = files.length;
    const slow = grepText(state, file, read.bytes.toString('utf8'), pattern);
    if (slow !== undefined || state.hits.length > hitsBefore) files.push(entry);
    if (slow !== undefined) skippedFiles.push({ file, reason: slow });
  };
  if (!job.start.folder) search(root);
  else {
    for (const entry of walk.files(root)) {
      if (glob && !glob(entry)) continue;
      search(entry);
      if (state.hits.length >= state.limit || walk.report.stopped !== undefined) break;
    }
  }
  return { hits: state.hits, skippedFiles, longLines: state.longLines, documents };
}

/**
 * The literal every match starts with, as UTF-8 bytes, when RE2 found one (re2js keeps it on the
 * compiled program); none when it spans a line end (matched after `\r\n` became `\n`) or holds a
 * replacement character (which undecodable bytes turn into).
 */
function literalPrefix(pattern: object): Buffer | undefined {
  const prefix = (pattern as { re2Input?: { prefix?: unknown } }).re2Input?.prefix;
  if (typeof prefix !== 'string' || prefix === '' || /[\r\n\uFFFD]/u.test(prefix)) return undefined;
  return Buffer.from(prefix, 'utf8');
}
