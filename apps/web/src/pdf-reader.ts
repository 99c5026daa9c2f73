import { RepaError } from '@repa/protocol';
import { html } from 'htm/preact';
import type { PDFDocumentLoadingTask } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'preact/hooks';
import { describeError } from './panels.js';
import { type PageLines, PdfPages } from './pdf-pages.js';

/** The zoom steps' factor, and the smallest and largest zoom. */
const STEP = 1.25;
const MIN_SCALE = 0.25;
const MAX_SCALE = 4;
/** The room left beside a page fitted to the width (the scroll bar, a margin). */
const GUTTER = 24;

/** pdf.js (its legacy build: the browsers the page supports), loaded once, on first use. */
let pdfjs: Promise<typeof import('pdfjs-dist')> | undefined;
function loadPdfJs(): Promise<typeof import('pdfjs-dist')> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((module) => {
    // Its worker is served beside the page (build.mjs copies it): nothing is loaded from elsewhere.
    // One worker for every document the page opens: it is loaded and compiled once.
    module.GlobalWorkerOptions.workerPort = new Worker('/pdf.worker.js', { type: 'module' });
    return module;
  });
  return pdfjs;
}

/** The daemon's refusal of a PDF's bytes (a `RepaError`'s wire form), in words. */
async function refusal(response: Response): Promise<string> {
  try {
    return describeError(RepaError.fromWire(await response.json()));
  } catch {
    return `The daemon answered ${response.status}.`;
  }
}

/**
 * A PDF of the space shown as its pages (design R123): drawn with pdf.js as they come into view,
 * the text selectable, the cited lines marked; page navigation (buttons, a page box, PageUp and
 * PageDown or p and n) and zoom (−, +, fit to the width; the - and + keys).
 */
export function PdfReader({
  space,
  path,
  version,
  at,
}: {
  space: string;
  path: string;
  /** Grows whenever the file may have changed: its bytes are fetched again. */
  version: number;
  /** The page to show, with the lines to mark on it. */
  at: { page: number; lines?: PageLines | undefined };
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [pages, setPages] = useState<PdfPages | undefined>();
  const [count, setCount] = useState(0);
  const [current, setCurrent] = useState(1);
  const [typed, setTyped] = useState<string | undefined>();
  const [scale, setScale] = useState<number | 'fit'>('fit');
  const [shownScale, setShownScale] = useState(1);
  const [error, setError] = useState('');
  const loaded = useRef<{ etag: string | null; task: PDFDocumentLoadingTask } | undefined>(
    undefined,
  );

  useEffect(() => {
    let current = true;
    let made: PdfPages | undefined;
    void (async () => {
      // pdf.js and its worker load while the bytes come.
      const loading = loadPdfJs();
      loading.catch(() => undefined); // Its failure is told where it is awaited.
      const response = await fetch(`/pdf?${new URLSearchParams({ space, path }).toString()}`, {
        credentials: 'same-origin',
      });
      if (!response.ok) throw new Error(await refusal(response));
      const etag = response.headers.get('etag');
      // The same bytes again keep the pages (and where they were scrolled to).
      if (loaded.current && etag !== null && loaded.current.etag === etag) return;
      const module = await loading;
      const data = new Uint8Array(await response.arrayBuffer());
      // No WebAssembly: the page's policy allows scripts from the daemon only (pdf.js decodes
      // the rare JPEG 2000 image in JavaScript instead).
      const task = module.getDocument({ data, useWasm: false });
      const document = await task.promise;
      if (!current || !scroller.current || !host.current) {
        void task.destroy();
        return;
      }
      const first = await document.getPage(1);
      const fit = (scroller.current.clientWidth - GUTTER) / first.getViewport({ scale: 1 }).width;
      const previous = loaded.current;
      loaded.current = { etag, task };
      host.current.replaceChildren();
      made = new PdfPages({
        pdfjs: module,
        document,
        first,
        scroller: scroller.current,
        host: host.current,
        scale: fit,
        onPage: setCurrent,
      });
      void previous?.task.destroy();
      setScale('fit');
      setShownScale(fit);
      setCount(document.numPages);
      setError('');
      setPages(made);
    })().catch((failure: unknown) => {
      if (current) setError(failure instanceof Error ? failure.message : String(failure));
    });
    return () => {
      current = false;
    };
  }, [space, path, version]);

  // The pages of another file, or none: the document goes with them.
  useEffect(
    () => () => {
      void loaded.current?.task.destroy();
      loaded.current = undefined;
    },
    [space, path],
  );
  useEffect(() => () => pages?.destroy(), [pages]);
  useEffect(() => {
    pages?.goTo(at.page, at.lines);
    if (pages) setCurrent(pages.current);
  }, [pages, at.page, at.lines?.from, at.lines?.to]);
  useEffect(() => {
    if (!pages || !scroller.current) return;
    const next = scale === 'fit' ? (scroller.current.clientWidth - GUTTER) / pages.width : scale;
    pages.setScale(next);
    setShownScale(next);
  }, [pages, scale]);

  const go = (page: number) => {
    if (!pages) return;
    pages.goTo(Math.min(Math.max(page, 1), count));
    setCurrent(pages.current);
  };
  const zoom = (factor: number) =>
    setScale(Math.min(MAX_SCALE, Math.max(MIN_SCALE, shownScale * factor)));
  const onKeyDown = (event: KeyboardEvent) => {
    if ((event.target as Element).closest('input, select, textarea')) return;
    const key = event.key;
    const action =
      key === 'PageDown' || key === 'n'
        ? () => go(current + 1)
        : key === 'PageUp' || key === 'p'
          ? () => go(current - 1)
          : key === '+' || key === '='
            ? () => zoom(STEP)
            : key === '-'
              ? () => zoom(1 / STEP)
              : undefined;
    if (!action || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    action();
  };

  return html`<div class="pdf-reader" onKeyDown=${onKeyDown}>
    <div class="row pdf-tools" role="toolbar" aria-label="Pages and zoom">
      <button type="button" class="link" aria-label="Previous page" disabled=${current <= 1} onClick=${() => go(current - 1)}>‹</button>
      <label class="inline" for="pdf-page-box">Page</label>
      <input id="pdf-page-box" class="pdf-page-box" inputMode="numeric" value=${typed ?? String(current)}
        onInput=${(event: Event) => setTyped((event.target as HTMLInputElement).value)}
        onBlur=${() => setTyped(undefined)}
        onKeyDown=${(event: KeyboardEvent) => {
          if (event.key !== 'Enter') return;
          const page = Number(typed);
          setTyped(undefined);
          if (Number.isInteger(page)) go(page);
        }} />
      <span class="meta">of ${count || '…'}</span>
      <button type="button" class="link" aria-label="Next page" disabled=${current >= count} onClick=${() => go(current + 1)}>›</button>
      <span class="pdf-zoom">
        <button type="button" class="link" aria-label="Zoom out" onClick=${() => zoom(1 / STEP)}>−</button>
        <span class="meta" aria-live="polite">${Math.round(shownScale * 100)}%</span>
        <button type="button" class="link" aria-label="Zoom in" onClick=${() => zoom(STEP)}>+</button>
        <button type="button" class="link" aria-pressed=${scale === 'fit'} onClick=${() => setScale('fit')}>Fit width</button>
      </span>
    </div>
    ${error ? html`<p class="error-text" role="alert">${error}</p>` : ''}
    ${!pages && !error ? html`<p class="meta">Opening the pages…</p>` : ''}
    <div class="pdf-scroller" ref=${scroller} tabIndex="0" aria-label=${`Pages of ${path}`}>
      <div class="pdf-pages" ref=${host}></div>
    </div>
  </div>`;
}
