// The citation grammar's location (the README's "Citations"): the one parser of
// `document(#pN)?:start(-end)?` that answers' citations and study cards' `cite` share.

/** Where a citation points: a document, an optional page, and lines. */
export interface CitationLocation {
  /** A space path (`<…>` and a leading `./` taken off) or a `repa:document/…`/`repa:material/…` identity. */
  document: string;
  /** The page (or chapter), from 1: its lines count from the line after the page's marker. */
  page?: number;
  /** First cited line, as written. */
  startLine: number;
  /** Last cited line (the first when one line is cited). */
  endLine: number;
}

// Document, optional page, then lines `12`, `12-18` or `12–18` (en dash).
const LOCATION = /^(.+?)(?:#p(\d{1,6}))?:(\d{1,9})(?:\s*[-\u2013]\s*(\d{1,9}))?$/u;
const IDENTITY = /^repa:(?:document|material)\/[A-Za-z0-9_-]+$/;
// A bare path: no whitespace, quotes or angle brackets, and a `/` or `.` in it (so `10:30` is
// no location).
const BARE_PATH = /^[^\s"<>\u201C\u201D]*[./][^\s"<>\u201C\u201D]*$/u;

function documentOf(written: string): string | undefined {
  if (written.startsWith('<') && written.endsWith('>')) {
    const path = written.slice(1, -1).trim();
    return path.length > 0 && !/[<>]/.test(path) ? path : undefined;
  }
  if (written.startsWith('repa:')) return IDENTITY.test(written) ? written : undefined;
  if (!BARE_PATH.test(written)) return undefined;
  return written.startsWith('./') ? written.slice(2) : written;
}

/**
 * The location `text` writes (`notes/x.md:12-18`, `book.pdf#p4:3`, `<my notes.md>:2`), or
 * `undefined` when it is none; line numbers are taken as written (a checker judges them).
 */
export function parseCitationLocation(text: string): CitationLocation | undefined {
  const location = LOCATION.exec(text);
  if (!location) return undefined;
  const [, written = '', page, start = '', end] = location;
  const document = documentOf(written);
  if (document === undefined) return undefined;
  const startLine = Number(start);
  return {
    document,
    ...(page === undefined ? {} : { page: Number(page) }),
    startLine,
    endLine: end === undefined ? startLine : Number(end),
  };
}
