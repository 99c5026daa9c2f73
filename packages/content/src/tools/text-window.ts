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

/**
 * The text result of Pi's `read` tool for a text file, computed without decoding more than the
 * window the model is shown: the same text and truncation facts Pi gives for `offset`/`limit`
 * (Pi's own `truncateHead` does the cutting), so a huge file is never decoded whole and never holds
 * the event loop. `totalLines` is the file's line count (for the partial-read check).
 * @throws Error exactly as Pi's tool does when `offset` lies beyond the end of the file.
 */
export async function readTextWindow(
  bytes: Buffer,
  path: string,
  params: { offset?: number; limit?: number },
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
  const selected = to > from ? bytes.subarray(scan.start, scan.end) : bytes.subarray(0, 0);
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
    const firstLineSize = formatSize(scan.firstEnd - scan.start);
    text = `[Line ${startLineDisplay} is ${firstLineSize}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Use bash: sed -n '${startLineDisplay}p' ${path} | head -c ${DEFAULT_MAX_BYTES}]`;
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
  const lineCount = truncation.firstLineExceedsLimit ? 0 : truncation.content.split('\n').length;
  return { text, details, totalLines, shown: { firstLine: startLineDisplay, lineCount } };
}
