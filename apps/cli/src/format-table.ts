import { paint } from './style.js';

/** Options of {@link formatTable}. */
export interface TableOptions {
  /** The terminal's width: cells are shortened with `…` so every line fits (default: no limit). */
  width?: number | undefined;
  /** The stream the table goes to, for bold headers when it shows colour. */
  out?: NodeJS.WritableStream;
}

const MIN_COLUMN = 6;

function shorten(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, Math.max(0, width - 1))}…` : text;
}

/**
 * Rows as aligned text columns under upper-case headers; the last column is not padded. With a
 * width, the widest columns (the last one first) are shortened until each line fits.
 */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
  options: TableOptions = {},
): string {
  const widths = headers.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  if (options.width !== undefined) {
    const total = () => widths.reduce((sum, width) => sum + width, 0) + 2 * (widths.length - 1);
    const last = widths.length - 1;
    let excess = total() - options.width;
    if (excess > 0 && last >= 0) {
      const floor = Math.max(MIN_COLUMN, headers[last]?.length ?? 0);
      const cut = Math.min(excess, Math.max(0, (widths[last] ?? 0) - floor));
      widths[last] = (widths[last] ?? 0) - cut;
      excess -= cut;
    }
    while (excess > 0) {
      const column = widths.indexOf(Math.max(...widths));
      const floor = Math.max(MIN_COLUMN, headers[column]?.length ?? 0);
      if ((widths[column] ?? 0) <= floor) break;
      widths[column] = (widths[column] ?? 0) - 1;
      excess -= 1;
    }
  }
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        const fitted = shorten(cell, width);
        return column === cells.length - 1 ? fitted : fitted.padEnd(width);
      })
      .join('  ')
      .trimEnd();
  const header = line(headers.map((name) => name.toUpperCase()));
  return `${[options.out ? paint(options.out, 'bold', header) : header, ...rows.map(line)].join('\n')}\n`;
}

/** The first 8 characters of an id (where no list of the others is at hand). */
export function shortId(id: string): string {
  return id.slice(0, 8);
}

/**
 * The shortest prefix of each id, of at least `min` characters, that no other of `ids` starts
 * with: ids made at nearly the same time (UUIDv7 sessions) share their first characters, so a
 * fixed width would not tell them apart. Each prefix is accepted wherever the id is.
 */
export function uniquePrefixes(ids: readonly string[], min = 8): Map<string, string> {
  const unique = [...new Set(ids)];
  const prefixes = new Map<string, string>();
  for (const id of unique) {
    let length = Math.min(min, id.length);
    const clashes = (n: number) =>
      unique.some((other) => other !== id && other.startsWith(id.slice(0, n)));
    while (length < id.length && (clashes(length) || id[length - 1] === '-')) length += 1;
    prefixes.set(id, id.slice(0, length));
  }
  return prefixes;
}

const pad = (value: number) => String(value).padStart(2, '0');

/**
 * An ISO time relative to `now` in local time: `just now`, `5 min ago`, `3 h ago`, else the local
 * date and time (`2026-11-02 14:03`).
 */
export function relativeTime(iso: string, now = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return iso;
  const seconds = Math.round((now - time) / 1000);
  if (seconds >= -5 && seconds < 60) return 'just now';
  if (seconds >= 60 && seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds >= 3600 && seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  const date = new Date(time);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Writes `value` as JSON on one line (what `--json` promises), with a final newline. */
export function writeJson(out: NodeJS.WritableStream, value: unknown): void {
  out.write(`${JSON.stringify(value)}\n`);
}
