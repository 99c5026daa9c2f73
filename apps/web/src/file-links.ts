import { html } from 'htm/preact';
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

/** Where the reader opens: a file of the space (or a material), at a line or a page. */
export interface ReaderPlace {
  /** A space path or a `repa:` identity. */
  path: string;
  /** The first line to show and mark (from 1; on `page` when given, else in the whole text). */
  line?: number | undefined;
  /** The last line to mark. */
  endLine?: number | undefined;
  /** The page (or chapter) of a document, from 1. */
  page?: number | undefined;
}

const OPEN = 'repa-reader-open';

/** Opens `place` in the reader (the documents panel listens). */
export function openInReader(place: ReaderPlace): void {
  window.dispatchEvent(new CustomEvent<ReaderPlace>(OPEN, { detail: place }));
}

/** The data attributes that make an element a link to the reader (read back on a click). */
export function readerAttributes(place: ReaderPlace): Record<string, string> {
  const attributes: Record<string, string> = { 'data-reader-path': place.path };
  if (place.line !== undefined) attributes['data-reader-line'] = String(place.line);
  if (place.endLine !== undefined) attributes['data-reader-end'] = String(place.endLine);
  if (place.page !== undefined) attributes['data-reader-page'] = String(place.page);
  return attributes;
}

/** The address of a place: the page's own address with the document named (a deep link). */
export function readerHref(place: ReaderPlace): string {
  const params = new URLSearchParams(location.hash.slice(1));
  for (const name of ['doc', 'line', 'page']) params.delete(name);
  params.set('doc', place.path);
  if (place.page !== undefined) params.set('page', String(place.page));
  if (place.line !== undefined) params.set('line', String(place.line));
  return `#${params.toString()}`;
}

const numberOf = (value: string | null) => (value === null ? undefined : Number(value));

/**
 * Calls `onOpen` for every place asked for: by {@link openInReader}, and by a click on any link
 * carrying {@link readerAttributes} (also those inside rendered Markdown).
 */
export function useReaderRequests(onOpen: (place: ReaderPlace) => void): void {
  useEffect(() => {
    const onRequest = (event: Event) => onOpen((event as CustomEvent<ReaderPlace>).detail);
    const onClick = (event: MouseEvent) => {
      if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
      const link = (event.target as Element | null)?.closest?.('[data-reader-path]');
      const path = link?.getAttribute('data-reader-path');
      if (!link || !path) return;
      event.preventDefault();
      onOpen({
        path,
        line: numberOf(link.getAttribute('data-reader-line')),
        endLine: numberOf(link.getAttribute('data-reader-end')),
        page: numberOf(link.getAttribute('data-reader-page')),
      });
    };
    window.addEventListener(OPEN, onRequest);
    document.addEventListener('click', onClick);
    return () => {
      window.removeEventListener(OPEN, onRequest);
      document.removeEventListener('click', onClick);
    };
  }, []);
}

/** A file name that opens the reader at its line or page (tool lines, receipts, citations). */
export function FileLink({
  place,
  children,
}: {
  place: ReaderPlace;
  children?: ComponentChildren;
}) {
  const label = `Open ${place.path}${place.page ? ` page ${place.page}` : ''}${
    place.line ? ` at line ${place.line}` : ''
  } in the reader`;
  return html`<a class="file-link" href=${readerHref(place)} title=${label} ...${readerAttributes(
    place,
  )}>${children ?? html`<code>${place.path}</code>`}</a>`;
}

// The citation form of the protocol's README: `[path#p4:3-9 "quote"]`, `[<a path>:2]`, identities.
const CITATION =
  /^\[(<[^<>\]\n]+>|repa:(?:document|material)\/[A-Za-z0-9_-]+|[^\s"<>[\]\u201C\u201D]*[./][^\s"<>[\]\u201C\u201D]*?)(?:#p(\d{1,6}))?:(\d{1,9})(?:\s*[-\u2013]\s*(\d{1,9}))?(?:\s+["\u201C][^"\u201C\u201D\n\]]*["\u201D])?\]/u;
// A code span that names a file of the space: `notes/a.md`, `notes/a.md:12` (also with more
// backticks, or a space inside each end, which marked leaves out as CommonMark says).
const CODE_PATH =
  /^(`+)( ?)(((?:[\w.-]+\/)*[\w.-]+\.(?:md|markdown|txt|rst|org|csv|json|pdf|docx|epub|html?))(?::(\d{1,9}))?)\2\1(?!`)/iu;

// A file name in an answer's text: `notes/a.md`, `week 1`'s `moon.pdf` (a known extension, not part
// of a longer word, path or address).
const FILE_EXTENSIONS = 'md|markdown|txt|rst|org|csv|pdf|docx|epub|html?';
const TEXT_PATH = new RegExp(
  `^(?:[\\w-]+/)*[\\w-][\\w.-]*\\.(?:${FILE_EXTENSIONS})(?![\\w/@-]|\\.\\w)`,
  'iu',
);
const TEXT_PATH_START = new RegExp(
  `(?<![\\w/.:@#~-])(?:[\\w-]+/)*[\\w-][\\w.-]*\\.(?:${FILE_EXTENSIONS})(?![\\w/@-]|\\.\\w)`,
  'iu',
);

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
/** `text` with HTML's special characters escaped. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character] ?? character);
}

/** An `<a>` to the reader around `inner` (already safe HTML). */
function linkHtml(place: ReaderPlace, inner: string): string {
  const attributes = Object.entries(readerAttributes(place))
    .map(([name, value]) => ` ${name}="${escapeHtml(value)}"`)
    .join('');
  return `<a class="file-link" href="${escapeHtml(readerHref(place))}"${attributes}>${inner}</a>`;
}

interface ReaderToken {
  type: 'readerCitation' | 'readerPath' | 'readerCode';
  raw: string;
  place: ReaderPlace;
  /** What the link shows: the code span's text (else what was written). */
  code?: string;
}

/** What marked gives an extension's tokenizer as `this`: no link inside a link. */
type InLink = { lexer: { state: { inLink: boolean } } };

const renderReaderToken = (token: unknown): string => {
  const { raw, place, code } = token as ReaderToken;
  return linkHtml(place, code === undefined ? escapeHtml(raw) : `<code>${escapeHtml(code)}</code>`);
};

/**
 * A `marked` extension: citations in an answer (`[notes/a.md:3 "…"]`), file names in its text
 * (`notes/a.md`) and code spans naming a file (`notes/a.md:12`) become links to the reader. Each is
 * made by a tokenizer that steps aside inside a link and for a link's text (a link in a link would
 * break both). Everything else renders as before.
 */
export const fileLinksExtension = {
  extensions: [
    {
      name: 'readerCitation',
      level: 'inline' as const,
      start: (source: string) => source.indexOf('['),
      tokenizer(this: InLink, source: string): ReaderToken | undefined {
        if (this.lexer.state.inLink) return undefined;
        const match = CITATION.exec(source);
        // `[notes/a.md:3](…)` and `[notes/a.md:3][ref]` are a Markdown link's text: left to marked.
        if (!match || /^[[(]/.test(source.slice(match[0].length))) return undefined;
        const [raw, written = '', page, start = '', end] = match;
        const path = written.startsWith('<') ? written.slice(1, -1).trim() : written;
        return {
          type: 'readerCitation',
          raw,
          place: {
            path: path.startsWith('./') ? path.slice(2) : path,
            line: Number(start),
            endLine: end === undefined ? undefined : Number(end),
            page: page === undefined ? undefined : Number(page),
          },
        };
      },
      renderer: renderReaderToken,
    },
    {
      name: 'readerPath',
      level: 'inline' as const,
      start: (source: string) => source.search(TEXT_PATH_START),
      tokenizer(this: InLink, source: string): ReaderToken | undefined {
        if (this.lexer.state.inLink) return undefined;
        const raw = TEXT_PATH.exec(source)?.[0];
        return raw === undefined ? undefined : { type: 'readerPath', raw, place: { path: raw } };
      },
      renderer: renderReaderToken,
    },
    {
      name: 'readerCode',
      level: 'inline' as const,
      start: (source: string) => source.indexOf('`'),
      tokenizer(this: InLink, source: string): ReaderToken | undefined {
        if (this.lexer.state.inLink) return undefined;
        const match = CODE_PATH.exec(source);
        if (!match) return undefined; // Any other code span is marked's.
        const [raw, , , code = '', path = '', line] = match;
        const place = { path, line: line === undefined ? undefined : Number(line) };
        return { type: 'readerCode', raw, place, code };
      },
      renderer: renderReaderToken,
    },
  ],
};
