import type { RepaClient, V1Result } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { ReaderPlace } from './file-links.js';
import { renderMarkdownBlocks } from './markdown.js';
import { describeError } from './panels.js';

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
  const [mode, setMode] = useState<'rendered' | 'lines' | undefined>();
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
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
  }, [space, place.path, version]);
  useEffect(() => setMode(undefined), [place]);
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
  const range = shown ? markedLines(shown, place) : undefined;
  // A place at a line opens the lines (the exact line marked); otherwise Markdown is rendered.
  const view =
    mode ?? (shown && isMarkdown(shown) && place.line === undefined ? 'rendered' : 'lines');
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
      shown
        ? html`<p class="meta reader-facts">
            ${size(shown.bytes)} · ${shown.lines - (!shown.truncated && shown.text.endsWith('\n') ? 1 : 0)} lines${unit ? ` · ${parts.length} ${unit}s` : ''}
            ${range ? ` · ${unit && place.page ? `${unit} ${place.page}, ` : ''}line ${range.from}${range.to > range.from ? `–${range.to}` : ''} marked` : ''}
          </p>
          <div class="row reader-tools">
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
    </div>
  </section>`;
}
