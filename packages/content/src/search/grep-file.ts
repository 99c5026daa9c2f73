import type { LinePattern } from './search-patterns.js';

/** Files are matched in slices of about this many characters (cut at a line end). */
export const SLICE_CHARS = 256 * 1024;
/** Characters two pieces of a longer line share, so a match up to this long is never cut. */
export const LONG_LINE_OVERLAP = 4096;
/** Longest line a hit carries back (the tool shows fewer characters; this only bounds copies). */
const KEPT_LINE_CHARS = 4096;

/** One matching line with its context, as the search worker sends it back. */
export interface GrepHit {
  /** The walk entry's index in the result's files. */
  file: number;
  /** The line's number (1-based). */
  line: number;
  /** The first line number of `lines`. */
  from: number;
  /** The lines from `from`: context before, the hit, context after (each cut to a bound). */
  lines: string[];
}

/** What one call's matching has found so far, shared by the files of a call. */
export interface GrepState {
  hits: GrepHit[];
  limit: number;
  context: number;
  matchMillisPerFile: number;
  /** Lines longer than a slice, matched in overlapping pieces. */
  longLines: number;
}

/**
 * Matches `text` (one file, line ends normalised here) against `pattern` in slices of about
 * {@link SLICE_CHARS} cut at line ends, a line longer than two slices in overlapping pieces, and
 * records every matching line with its context until the call's limit. Returns `'too slow'` when
 * matching this file ran past `matchMillisPerFile` (the file is then not fully searched).
 */
export function grepText(
  state: GrepState,
  file: number,
  text: string,
  pattern: LinePattern,
): 'too slow' | undefined {
  const normalised = text.includes('\r') ? text.replace(/\r\n?/gu, '\n') : text;
  const began = performance.now();
  const late = () => performance.now() - began >= state.matchMillisPerFile;
  let allLines: string[] | undefined;
  const hit = (line: number) => {
    allLines ??= normalised.split('\n');
    const from = Math.max(1, line - state.context);
    const to = Math.min(allLines.length, line + state.context);
    const lines = allLines.slice(from - 1, to).map((each) => each.slice(0, KEPT_LINE_CHARS));
    state.hits.push({ file, line, from, lines });
  };
  let first = 1;
  for (let from = 0; from < normalised.length && state.hits.length < state.limit; ) {
    if (late()) return 'too slow';
    const cut = normalised.indexOf('\n', from + SLICE_CHARS);
    let to = cut < 0 ? normalised.length : cut;
    if (to - from > 2 * SLICE_CHARS) {
      // A line longer than a slice: the slice ends before it, or it is matched in pieces.
      const before = normalised.lastIndexOf('\n', from + SLICE_CHARS);
      if (before >= from) to = before;
      else {
        const end = normalised.indexOf('\n', from);
        const lineEnd = end < 0 ? normalised.length : end;
        state.longLines += 1;
        if (longLineMatches(normalised, from, lineEnd, pattern, late)) hit(first);
        if (late()) continue;
        first += 1;
        from = lineEnd + 1;
        continue;
      }
    }
    const slice = normalised.slice(from, to);
    if (pattern.test(slice)) {
      const sliceLines = slice.split('\n');
      for (let index = 0; index < sliceLines.length && state.hits.length < state.limit; index++) {
        if (pattern.test(sliceLines[index] as string)) hit(first + index);
      }
      first += sliceLines.length;
    } else {
      first += countLines(slice);
    }
    from = to + 1;
  }
  return undefined;
}

/** Whether one long line holds a match, tested in overlapping pieces of a slice each. */
function longLineMatches(
  text: string,
  from: number,
  to: number,
  pattern: LinePattern,
  late: () => boolean,
): boolean {
  for (let start = from; start < to; start += SLICE_CHARS - LONG_LINE_OVERLAP) {
    if (late()) return false;
    if (pattern.test(text.slice(start, Math.min(to, start + SLICE_CHARS)))) return true;
    if (start + SLICE_CHARS >= to) break;
  }
  return false;
}

function countLines(text: string): number {
  let count = 1;
  for (let index = text.indexOf('\n'); index >= 0; index = text.indexOf('\n', index + 1)) count++;
  return count;
}
