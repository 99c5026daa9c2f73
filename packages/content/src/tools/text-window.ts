import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  DEFAULT_MAX_BYTES,
  type ReadToolDetails,
  truncateHead,
} from '@earendil-works/pi-coding-agent';
import { formatSize, YIELD_EVERY } from '../files/index.js';

const NEWLINE = 0x0a;

/** Where the lines a read asks for lie in a file's bytes. */
interface LineScan {
  /** Lines as Pi counts them (`text.split('\n').length`). */
  totalLines: number;
  /** Byte offset where line `startLine` (0-based) begins. */
  start: number;
  /** Byte offset where the first asked line ends (its newline, or the end of the file). */
  firstEnd: number;
  /** Byte offset where the last asked line ends. */
  end: number;
}

/**
 * One pass over `bytes` for the newlines a read needs, letting the event loop run after every
 * {@link YIELD_EVERY} bytes: nothing is decoded.
 */
async function scanLines(bytes: Buffer, startLine: number, endLine: number): Promise<LineScan> {
  // Line n (0-based) begins after the n-th newline; it ends at the next newline or the file's end.
  let newlines = 0;
  let start = startLine === 0 ? 0 : -1;
  let firstEnd = -1;
  let end = -1;
  let position = 0;
  let pause = YIELD_EVERY;
  for (;;) {
    const found = bytes.indexOf(NEWLINE, position);
    if (found === -1) break;
    if (newlines === startLine) firstEnd = found;
    if (newlines === endLine - 1) end = found;
    newlines++;
    if (newlines === startLine) start = found + 1;
    position = found + 1;
    if (position >= pause) {
      pause = position + YIELD_EVERY;
      await nextTurn();
    }
  }
  const last = bytes.length;
  return {
    totalLines: newlines + 1,
    start,
    firstEnd: firstEnd === -1 ? last : firstEnd,
    end: end === -1 ? last : end,
  };
}

/** Lines as Pi's truncation counts them in `selected`, lines `from`–`to` (a final empty one is not counted). */
function countedLines(selected: Buffer, from: number, to: number): number {
  if (selected.length === 0) return 0;
  return selected[selected.length - 1] === NEWLINE ? to - from - 1 : to - from;
}

/** The first byte at or after `at` that begins a UTF-8 character (never past `end`). */
function charStart(bytes: Buffer, at: number, end: number): number {
  let position = at;
  while (position < end && ((bytes[position] ?? 0) & 0xc0) === 0x80) position++;
  return position;
}

/** The last UTF-8 character boundary at or before `at` (never before `start`). */
function charEnd(bytes: Buffer, start: number, at: number): number {
  let position = at;
  while (position > start && ((bytes[position] ?? 0) & 0xc0) === 0x80) position--;
  return position;
}

/**
 * The text result of Pi's `read` tool for a text file, computed without decoding more than the
 * window the model is shown: the same text and truncation facts Pi gives for `offset`/`limit`
 * (Pi's own `truncateHead` does the cutting), so a huge file is never decoded whole and never holds
 * the event loop. `totalLines` is the file's line count (for the partial-read check). Unlike Pi's
 * tool, a line longer than the window is shown in pieces (Pi points at `bash`, which a learner's
 * space may not have): its first {@link DEFAULT_MAX_BYTES} bytes, then from `byteOffset` on.
 * @throws Error exactly as Pi's tool does when `offset` lies beyond the end of the file, and when
 * `byteOffset` lies beyond the end of its line.
 */
export async function readTextWindow(
  bytes: Buffer,
  path: string,
  params: { offset?: number; limit?: number; byteOffset?: number },
): Promise<{
  text: string;
  details: ReadToolDetails | undefined;
  totalLines: number;
  /** The lines the text begins with: the first one's number (from 1) and how many. */
  shown: { firstLine: number; lineCount: number };
}> {
  const { offset, limit } = params;
  const startLine = offset ? Math.max(0, offset - 1) : 0;
  const asked = limit === undefined ? Number.POSITIVE_INFINITY : startLine + limit;
  // Pi selects `allLines.slice(startLine, endLine)`: indexes truncated, a negative end from the end.
  const from = Math.trunc(startLine);
  let scan = await scanLines(bytes, from, Math.max(from, Math.trunc(asked)));
  const { totalLines } = scan;
  if (startLine >= totalLines) {
    throw new Error(`Offset ${offset} is beyond end of file (${totalLines} lines total)`);
  }
  const startLineDisplay = startLine + 1;
  const endLine = Math.min(asked, totalLines);
  let to = Math.trunc(endLine);
  if (to < 0) {
    to = Math.max(0, totalLines + to);
    if (to > from) scan = await scanLines(bytes, from, to);
  }
  const userLimitedLines = limit === undefined ? undefined : endLine - startLine;
  // Where the first line's shown part begins: a byte of it (from 1), moved to a character's start.
  const lineBytes = scan.firstEnd - scan.start;
  const skip = params.byteOffset ? Math.max(0, Math.trunc(params.byteOffset) - 1) : 0;
  if (skip > 0 && skip >= lineBytes) {
    throw new Error(
      `byteOffset ${params.byteOffset} is beyond the end of line ${startLineDisplay} (${lineBytes} bytes)`,
    );
  }
  const begin = charStart(bytes, scan.start + skip, scan.firstEnd);
  const selected = to > from ? bytes.subarray(begin, scan.end) : bytes.subarray(0, 0);
  // Pi keeps no line ending past DEFAULT_MAX_BYTES, so a few bytes more decide the same cut.
  const window = selected.subarray(0, DEFAULT_MAX_BYTES + 4);
  const cut = truncateHead(window.toString('utf8'));
  const truncation =
    window.length === selected.length
      ? cut
      : { ...cut, totalLines: countedLines(selected, from, to), totalBytes: selected.length };
  let text: string;
  let details: ReadToolDetails | undefined;
  if (truncation.firstLineExceedsLimit) {
    // A piece of the line, cut at a character's end; the next call goes on from there.
    const stop = charEnd(bytes, begin, Math.min(scan.firstEnd, begin + DEFAULT_MAX_BYTES));
    const first = begin - scan.start + 1;
    const last = stop - scan.start;
    // The rest of the line is longer than the limit too (else it was shown with the next lines).
    text = `${bytes.toString('utf8', begin, stop)}\n\n[Line ${startLineDisplay} of ${path} is ${formatSize(lineBytes)}, longer than the ${formatSize(DEFAULT_MAX_BYTES)} limit: showing its bytes ${first}-${last}. Use offset=${startLineDisplay} byteOffset=${last + 1} to continue.]`;
    details = { truncation };
  } else if (truncation.truncated) {
    const endLineDisplay = startLineDisplay + truncation.outputLines - 1;
    const nextOffset = endLineDisplay + 1;
    const limitNote =
      truncation.truncatedBy === 'lines' ? '' : ` (${formatSize(DEFAULT_MAX_BYTES)} limit)`;
    text = `${truncation.content}\n\n[Showing lines ${startLineDisplay}-${endLineDisplay} of ${totalLines}${limitNote}. Use offset=${nextOffset} to continue.]`;
    details = { truncation };
  } else if (userLimitedLines !== undefined && startLine + userLimitedLines < totalLines) {
    const remaining = totalLines - (startLine + userLimitedLines);
    const nextOffset = startLine + userLimitedLines + 1;
    text = `${truncation.content}\n\n[${remaining} more lines in file. Use offset=${nextOffset} to continue.]`;
  } else {
    text = truncation.content;
  }
  const lineCount = truncation.firstLineExceedsLimit ? 1 : truncation.content.split('\n').length;
  return { text, details, totalLines, shown: { firstLine: startLineDisplay, lineCount } };
}
