import { DEFAULT_EXTRACTION_LIMITS, DOCUMENT_EXTENSIONS, partOfLine } from '@repa/documents';
import { RepaError } from '@repa/protocol';
import { type ContentText, contentText } from '../documents/index.js';
import {
  type GrepHit,
  type GrepState,
  grepText,
  type LinePattern,
  readDocumentForSearch,
  type SearchAnswer,
  type SearchLimits,
  type WalkStart,
} from '../search/index.js';
import type { ContentStore } from '../store/index.js';

/** Larger documents are skipped by `grep` (their text is extracted, and cached, to search it). */
export const MAX_DOCUMENT_BYTES = 128 * 1024 * 1024;

/** What a grep job leaves to {@link searchDocuments}: the files `isDocumentName` names. */
export const GREP_DOCUMENTS = { extensions: DOCUMENT_EXTENSIONS, maxBytes: MAX_DOCUMENT_BYTES };

/** A matching line: in a text file, or in a document's text with its page or chapter. */
export interface FoundHit extends GrepHit {
  page?: number;
  unit?: 'page' | 'chapter';
}

/** A file not (fully) searched, by its index in the answer's entries; `message` says why. */
export interface SkippedFile {
  file: number;
  reason: 'too large' | 'too slow' | 'unreadable';
  message?: string;
}

/** One grep's hits and skipped files, text files and documents together, in walk order. */
export interface GrepFindings {
  hits: FoundHit[];
  skippedFiles: SkippedFile[];
  longLines: number;
}

/** What searching a walk's documents needs besides the worker's answer. */
export interface DocumentSearch {
  store: ContentStore;
  start: WalkStart;
  pattern: LinePattern;
  limit: number;
  context: number;
  limits: SearchLimits;
  /** When the call's time is up (`performance.now()`), and the reason the result then gives. */
  deadline: number;
  timeReason: string;
  signal?: AbortSignal | undefined;
}

/**
 * Completes a grep with the documents its walk met (spec R60): the search worker leaves them out,
 * and each is read here, its text extracted (in the extraction process, cached under
 * `.repa/documents`) and matched with the worker's line matcher; its hits, with their page or
 * chapter, take their place in walk order among the worker's, all cut at `limit`. A document the
 * call's time runs out before stops the search there, as the walk would have.
 */
export async function searchDocuments(
  answer: SearchAnswer,
  search: DocumentSearch,
): Promise<GrepFindings> {
  const found = answer.grep ?? { hits: [], skippedFiles: [], longLines: 0, documents: [] };
  const { limit } = search;
  const { report } = answer;
  const hits: FoundHit[] = [];
  const skippedFiles: SkippedFile[] = [...found.skippedFiles];
  let longLines = found.longLines;
  let next = 0;
  /** The worker's hits in files before `file` (in walk order), up to the limit. */
  const hitsBefore = (file: number) => {
    for (; next < found.hits.length && hits.length < limit; next++) {
      const hit = found.hits[next] as GrepHit;
      if (hit.file >= file) return;
      hits.push(hit);
    }
  };
  let cut: number | undefined;
  for (const file of found.documents) {
    hitsBefore(file);
    if (hits.length >= limit) break;
    if (search.signal?.aborted) throw new Error('Operation aborted');
    if (performance.now() >= search.deadline) {
      report.stopped = search.timeReason;
      cut = file;
      break;
    }
    const entry = answer.entries[file] as SearchAnswer['entries'][number];
    const read = await readDocumentForSearch(entry.absolutePath, { maxBytes: MAX_DOCUMENT_BYTES });
    if ('skipped' in read) {
      if (read.skipped === 'special') report.special += 1;
      if (read.skipped === 'too large') skippedFiles.push({ file, reason: 'too large' });
      continue;
    }
    let text: ContentText;
    try {
      // A text file named like a document is searched within a document's text bound.
      text = await contentText(search.store, read.bytes, entry.target, {
        shown: JSON.stringify(entry.path),
        maxChars: DEFAULT_EXTRACTION_LIMITS.maxTextChars,
      });
    } catch (error) {
      if (!RepaError.isInstance(error)) throw error;
      // A file named like a document that is not one (an image, say) is not searched, as binary.
      if (error.code !== 'unsupported_content') {
        skippedFiles.push({ file, reason: 'unreadable', message: error.message });
      }
      continue;
    }
    const state: GrepState = {
      hits: [],
      limit: limit - hits.length,
      context: search.context,
      matchMillisPerFile: search.limits.matchMillisPerFile,
      longLines: 0,
    };
    // Only its first characters were searched.
    if (text.truncated) skippedFiles.push({ file, reason: 'too large' });
    const slow = grepText(state, file, text.text, search.pattern);
    longLines += state.longLines;
    const { document } = text;
    for (const hit of state.hits) {
      const unit = document?.unit;
      hits.push(
        document === undefined || unit === undefined
          ? hit
          : { ...hit, page: partOfLine(document, hit.line), unit },
      );
    }
    if (slow !== undefined) skippedFiles.push({ file, reason: slow });
  }
  hitsBefore(cut ?? Number.POSITIVE_INFINITY);
  // Files past where the search ended (its limit, or its time) were never reached.
  const end =
    cut ?? (hits.length >= limit ? (hits.at(-1)?.file ?? 0) + 1 : Number.POSITIVE_INFINITY);
  return {
    hits,
    skippedFiles: skippedFiles
      .filter((skipped) => skipped.file < end)
      .sort((a, b) => a.file - b.file),
    longLines,
  };
}
