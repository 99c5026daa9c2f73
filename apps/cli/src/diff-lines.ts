import type { SaveDiff } from '@repa/protocol';
import { paint } from './style.js';

/** How many changed lines a save shows under `[saved]` unless `--verbose`. */
export const SHOWN_CHANGED_LINES = 8;

/** `+3 −1`, or the note that says why there is no line diff. */
export function diffCounts(diff: SaveDiff): string {
  if (diff.note !== undefined && diff.added === 0 && diff.removed === 0) return `(${diff.note})`;
  return `+${diff.added} −${diff.removed}`;
}

/**
 * The changed lines of a diff (`+`/`-` lines, no headers or context), coloured on a terminal;
 * at most `limit`, then a line saying how many more there are and where to see them.
 */
export function changedLines(
  out: NodeJS.WritableStream,
  diff: SaveDiff,
  options: { limit?: number | undefined; more?: string } = {},
): string[] {
  const lines = (diff.diff ?? '')
    .split('\n')
    .filter((line) => /^[+-]/u.test(line) && !/^(\+\+\+|---) /u.test(line));
  const limit = options.limit ?? lines.length;
  const shown = lines.slice(0, limit).map((line) => colourLine(out, line));
  const rest = lines.length - shown.length;
  if (rest > 0 || diff.truncated) {
    const count = rest > 0 ? `${rest} more changed line${rest === 1 ? '' : 's'}` : 'more lines';
    shown.push(`… ${count}${options.more ? ` (${options.more})` : ''}`);
  }
  return shown;
}

/** A unified diff as it is, its lines coloured on a terminal. */
export function unifiedLines(out: NodeJS.WritableStream, text: string): string[] {
  return text
    .replace(/\n$/u, '')
    .split('\n')
    .map((line) => colourLine(out, line));
}

function colourLine(out: NodeJS.WritableStream, line: string): string {
  if (line.startsWith('+++ ') || line.startsWith('--- ')) return paint(out, 'bold', line);
  if (line.startsWith('+')) return paint(out, 'green', line);
  if (line.startsWith('-')) return paint(out, 'red', line);
  if (line.startsWith('@@')) return paint(out, 'cyan', line);
  return line;
}
