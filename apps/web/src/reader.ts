import type { RepaClient, V1Result } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ReaderPlace } from './file-links.js';
import { renderMarkdownBlocks } from './markdown.js';
import { describeError } from './panels.js';
import type { PageLines } from './pdf-pages.js';
import { PdfReader } from './pdf-reader.js';

type ReaderText = V1Result<'files.read'>;

/** A size for people: `812 B`, `14 KB`, `1.2 MB`. */
function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Whether the text is Markdown: notes so named, and Word, EPUB and web pages' text. */
function isMarkdown(text: ReaderText): boolean {
  if (text.document) return text.document.format !== 'pdf';
  return /\.(md|markdown|mdx)$/iu.test(text.path);
}

/**
 * The lines of the text `place` names: on a page, its lines count from the line after the page's
 * marker (the citation rule of the protocol); a page alone is its marker line.
 */
function markedLines(
  text: ReaderText,
  place: ReaderPlace,
): { from: number; to: number } | undefined {
  const part = place.page === undefined ? undefined : text.document?.parts[place.page - 1];
  const base = part ? part.line : 0;
  if (place.line === undefined) return part ? { from: base, to: base } : undefined;
  return { from: base + place.line, to: base + (place.endLine ?? place.line) };
}

/**
 * The space path a note's relative link names (`../week-1/moon.md` from `notes/a.md`), or
 * `undefined` for an address elsewhere (a scheme, `//`, `/` or `#`) or one leaving the space.
 */
function linkedPath(from: string, href: string): string | undefined {
  if (/^([a-z][a-z0-9+.-]*:|[/#])/iu.test(href)) return undefined;
  let target: string;
  try {
    target = decodeURIComponent(href.split(/[?#]/u)[0] ?? '');
  } catch {
    return undefined; // A malformed escape: left to the browser.
  }
  const parts = from.split('/').slice(0, -1);
  for (const part of target.split('/')) {
    if (part === '..') {
      if (parts.pop() === undefined) return undefined;
    } else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.length > 0 ? parts.join('/') : undefined;
}

/** Whether `path` names a PDF by its extension (its pages are shown before its text is read). */
const pdfByName = (path: string) => /\.pdf$/iu.test(path);

/**
 * Where the page view of a PDF opens for `place`: its page, and the lines to mark counted on that
 * page (a citation's `#p4:3-9`; a line of the whole text is moved onto its page by the text's page
 * markers, once the text is read).
 */
function pageAt(
  place: ReaderPlace,
  text: ReaderText | undefined,
): { page: number; lines?: PageLines } | undefined {
  const { page, line } = place;
  const last = place.endLine ?? line;
  if (page !== undefined) {
    return line === undefined || last === undefined
      ? { page }
      : { page, lines: { page, from: line, to: last } };
  }
  if (line === undefined || last === undefined) return { page: 1 };
  if (!text?.document) return undefined;
  const found = Math.max(partOf(text, line), 1);
  const marker = text.document.parts[found - 1]?.line ?? 0;
  return { page: found, lines: { page: found, from: line - marker, to: last - marker } };
}

/** The part (page or chapter) that holds `line`, from 1. */
function partOf(text: ReaderText, line: number): number {
  const parts = text.document?.parts ?? [];
  let found = 0;
  for (const [index, part] of parts.entries()) if (part.line <= line) found = index + 1;
  return found;
}

/**
 * A file of the space in the reader (`files.read`): Markdown rendered block by block, other text
 * and documents line by line with their page markers; the place asked for is marked and scrolled
 * to. A document's pages can be chosen from a list.
 */
export function Reader({
  client,
  space,
  place,
  version,
  onOpen,
  onClose,
}: {
  client: RepaClient;
  space: string;
  place: ReaderPlace;
  /** Grows whenever the file may have changed (a run ended): it is read again. */
  version: number;
  onOpen: (place: ReaderPlace) => void;
  onClose: () => void;
}) {
  const [text, setText] = useState<ReaderText | undefined>();
  const [error, setError] = useState('');
  const [mode, setMode] = useState<'rendered' | 'lines' | 'pages' | undefined>();
  const body = useRef<HTMLDivElement>(null);
  // A PDF named so opens as its pages at once: its text is read only when the lines are shown, or
  // to find the page of a line of the whole text.
  const pagesFirst =
    pdfByName(place.path) &&
    mode !== 'lines' &&
    (place.page !== undefined || place.line === undefined);

  useEffect(() => {
    if (pagesFirst) return;
    let current = true;
    setError('');
    void client.request('files.read', { space, path: place.path }).then(
      (read) => {
        if (!current) return;
        // The same bytes again keep the view (and where it was scrolled to).
        setText((old) => (old?.path === read.path && old.version === read.version ? old : read));
      },
      (failure: unknown) => {
        if (!current) return;
        setText(undefined);
        setError(describeError(failure));
      },
    );
    return () => {
      current = false;
    };
  }, [space, place.path, version, pagesFirst]);
  // Another place shows its own view; the lines chosen for a file stay while it is open.
  const openPath = useRef(place.path);
  useEffect(() => {
    if (mode !== 'lines' || openPath.current !== place.path) setMode(undefined);
    openPath.current = place.path;
  }, [place]);
  // Escape closes the reader first (caught before the page's own Escape, which then stands down).
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      event.preventDefault();
      onClose();
    };
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [onClose]);

  const shown = text?.path === place.path || text?.identity === place.path ? text : undefined;
  const pdf = pdfByName(place.path) || shown?.document?.format === 'pdf';
  // A PDF opens as its pages; a place at a line opens the lines (the exact line marked);
  // otherwise Markdown is rendered.
  const view =
    mode ??
    (pdf ? 'pages' : shown && isMarkdown(shown) && place.line === undefined ? 'rendered' : 'lines');
  const range = shown && view !== 'pages' ? markedLines(shown, place) : undefined;
  const at = view === 'pages' ? pageAt(place, shown) : undefined;
  const blocks = useMemo(
    () => (shown && view === 'rendered' ? renderMarkdownBlocks(shown.text) : []),
    [shown, view],
  );
  const lines = useMemo(() => {
    if (!shown || view !== 'lines') return [];
    const all = shown.text.split('\n');
    // A final line break ends the last line; it starts no empty one.
    if (all.length > 1 && all.at(-1) === '') all.pop();
    return all;
  }, [shown, view]);

  useEffect(() => {
    const target = body.current?.querySelector('.reader-mark');
    if (target) target.scrollIntoView({ block: 'center' });
    else body.current?.scrollTo({ top: 0 });
  }, [shown, view, range?.from, range?.to]);

  const inRange = (from: number, to: number) =>
    range !== undefined && from <= range.to && to >= range.from;
  const markers = new Set(shown?.document?.parts.map((part) => part.line));
  const unit = shown?.document?.unit;
  const parts = shown?.document?.parts ?? [];

  return html`<section class="reader" aria-labelledby="reader-heading">
    <div class="reader-head">
      <h3 id="reader-heading"><code>${place.path}</code></h3>
      <button type="button" class="link reader-close" onClick=${onClose}>Close</button>
    </div>
    ${error ? html`<p class="error-text" role="alert">${error}</p>` : ''}
    ${
      view === 'pages'
        ? html`<p class="meta reader-facts">${at?.lines ? `Page ${at.page}, line ${at.lines.from}${at.lines.to > at.lines.from ? `–${at.lines.to}` : ''} marked` : 'PDF pages'}</p>
          <div class="row reader-tools">
            <button type="button" class="link" onClick=${() => setMode('lines')}>Show text lines</button>
          </div>
          ${at ? html`<${PdfReader} space=${space} path=${place.path} version=${version} at=${at} />` : error ? '' : html`<p class="meta">Reading…</p>`}`
        : textView()
    }
  </section>`;

  function textView() {
    return html`${
      shown
        ? html`<p class="meta reader-facts">
            ${size(shown.bytes)} · ${shown.lines - (!shown.truncated && shown.text.endsWith('\n') ? 1 : 0)} lines${unit ? ` · ${parts.length} ${unit}s` : ''}
            ${range ? ` · ${unit && place.page ? `${unit} ${place.page}, ` : ''}line ${range.from}${range.to > range.from ? `–${range.to}` : ''} marked` : ''}
          </p>
          <div class="row reader-tools">
            ${pdf ? html`<button type="button" class="link" onClick=${() => setMode('pages')}>Show pages</button>` : ''}
            ${
              isMarkdown(shown)
                ? html`<button type="button" class="link" aria-pressed=${view === 'lines'} onClick=${() =>
                    setMode(
                      view === 'lines' ? 'rendered' : 'lines',
                    )}>${view === 'lines' ? 'Show rendered' : 'Show lines'}</button>`
                : ''
            }
            ${
              unit
                ? html`<label class="inline" for="reader-part">Go to ${unit}</label>
                    <select id="reader-part" value=${range ? String(partOf(shown, range.from)) : ''} onChange=${(
                      event: Event,
                    ) =>
                      onOpen({
                        path: place.path,
                        page: Number((event.target as HTMLSelectElement).value),
                      })}>
                      <option value="" disabled>—</option>
                      ${parts.map(
                        (part, index) =>
                          html`<option value=${String(index + 1)}>${unit} ${index + 1}${part.title ? `: ${part.title}` : ''}${part.empty ? ' (no text)' : ''}</option>`,
                      )}
                    </select>`
                : ''
            }
          </div>
          ${shown.truncated ? html`<p class="meta">Only the first lines are shown: the file is too long for the reader.</p>` : ''}`
        : error
          ? ''
          : html`<p class="meta">Reading…</p>`
    }
    <div class="reader-body" ref=${body} tabIndex="0" aria-label=${`Text of ${place.path}`} onClick=${(
      event: MouseEvent,
    ) => {
      // A note's link to another file of the space opens it here, not in a new tab.
      const href = (event.target as Element).closest?.('a[href]:not([data-reader-path])');
      const path = href && linkedPath(place.path, href.getAttribute('href') ?? '');
      if (!path || place.path.startsWith('repa:')) return;
      event.preventDefault();
      onOpen({ path });
    }}>
      ${
        view === 'rendered'
          ? blocks.map(
              (block) =>
                html`<div class=${`reader-block markdown${inRange(block.line, block.endLine) ? ' reader-mark' : ''}`} data-line=${block.line} dangerouslySetInnerHTML=${{ __html: block.html }}></div>`,
            )
          : html`<ol class="reader-lines">
              ${lines.map((line, index) => {
                const number = index + 1;
                const classes = [
                  markers.has(number) ? 'page-marker' : '',
                  inRange(number, number) ? 'reader-mark' : '',
                ].join(' ');
                return html`<li class=${classes} data-line=${number}><span class="line-number" aria-hidden="true">${number}</span><span class="line-text">${line || '\u00a0'}</span></li>`;
              })}
            </ol>`
      }
    </div>`;
  }
}
