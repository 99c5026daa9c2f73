import { pdfPageText } from '@repa/protocol';
import type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';

/** pdf.js's module (loaded on first use, a chunk of its own). */
type PdfJs = typeof import('pdfjs-dist');

/** Lines of a page to mark: from `from` to `to` (from 1), as citations count them. */
export interface PageLines {
  page: number;
  from: number;
  to: number;
}

/** One page's place in the scroll: sized before it is drawn, drawn when it comes near the view. */
interface PageSlot {
  number: number;
  element: HTMLDivElement;
  /** The page's size at scale 1, once known (until then the first page's). */
  size?: { width: number; height: number };
  drawn?: { scale: number; task: RenderTask | undefined; cancel: () => void };
}

/** How far beyond the view a page is drawn (and kept), as a share of the view's height. */
const NEAR = '100% 0px';

/**
 * The pages of a PDF in `scroller` (design R123): every page a box of its size at once, a page
 * drawn (canvas and pdf.js's selectable text layer) only while it is in or near the view and
 * dropped when it leaves, so a long document opens at once. The cited lines of a page are marked on
 * its text layer: the text items on those lines, by the rule the extraction numbers lines with
 * (`pdfPageText`).
 */
export class PdfPages {
  readonly #pdfjs: PdfJs;
  readonly #document: PDFDocumentProxy;
  readonly #scroller: HTMLElement;
  readonly #slots: PageSlot[];
  readonly #observer: IntersectionObserver;
  readonly #visible = new Map<number, number>();
  readonly #onPage: (page: number) => void;
  #first: { width: number; height: number };
  #scale: number;
  #mark: PageLines | undefined;
  /** The marked lines are yet to be scrolled to (once, when their page is drawn). */
  #toMark = false;
  #current = 1;

  constructor(options: {
    pdfjs: PdfJs;
    document: PDFDocumentProxy;
    first: PDFPageProxy;
    scroller: HTMLElement;
    host: HTMLElement;
    scale: number;
    onPage: (page: number) => void;
  }) {
    this.#pdfjs = options.pdfjs;
    this.#document = options.document;
    this.#scroller = options.scroller;
    this.#scale = options.scale;
    this.#onPage = options.onPage;
    const { width, height } = options.first.getViewport({ scale: 1 });
    this.#first = { width, height };
    this.#observer = new IntersectionObserver((entries) => this.#seen(entries), {
      root: this.#scroller,
      rootMargin: NEAR,
      threshold: [0, 0.25, 0.5, 0.75, 1],
    });
    this.#slots = Array.from({ length: options.document.numPages }, (_, index) => {
      const element = document.createElement('div');
      element.className = 'pdf-page';
      element.dataset.page = String(index + 1);
      element.setAttribute('aria-label', `Page ${index + 1}`);
      element.setAttribute('role', 'region');
      options.host.append(element);
      return { number: index + 1, element };
    });
    for (const slot of this.#slots) {
      this.#size(slot);
      this.#observer.observe(slot.element);
    }
  }

  /** The page most in view. */
  get current(): number {
    return this.#current;
  }

  /** The page's width at scale 1 (the first page's until another is known). */
  get width(): number {
    return this.#first.width;
  }

  /** Shows page `page` at its top, or (with `lines`) at those lines, marked. */
  goTo(page: number, lines?: PageLines): void {
    const slot = this.#slots[Math.min(Math.max(page, 1), this.#slots.length) - 1];
    if (!slot) return;
    const marked = this.#mark;
    this.#mark = lines;
    this.#toMark = lines !== undefined;
    for (const old of [marked?.page, lines?.page]) {
      const other = old === undefined ? undefined : this.#slots[old - 1];
      if (other?.drawn) this.#markLines(other);
    }
    // The scroller is the pages' offset parent (positioned): a page's top is its place in it.
    this.#scroller.scrollTop = slot.element.offsetTop;
    this.#setCurrent(slot.number);
  }

  /** Draws every page at `scale` (a zoom), keeping the page in view. */
  setScale(scale: number): void {
    if (scale === this.#scale) return;
    const page = this.#current;
    this.#scale = scale;
    for (const slot of this.#slots) {
      this.#drop(slot);
      this.#size(slot);
    }
    const mark = this.#mark;
    this.goTo(page, mark?.page === page ? mark : undefined);
    this.#mark = mark;
    for (const number of this.#visible.keys()) this.#draw(this.#slots[number - 1]);
  }

  /** Stops observing and drawing; the document is the caller's to destroy. */
  destroy(): void {
    this.#observer.disconnect();
    for (const slot of this.#slots) this.#drop(slot);
  }

  #seen(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      const number = Number((entry.target as HTMLElement).dataset.page);
      const slot = this.#slots[number - 1];
      if (!slot) continue;
      if (entry.isIntersecting) {
        this.#visible.set(number, entry.intersectionRatio);
        this.#draw(slot);
      } else {
        this.#visible.delete(number);
        this.#drop(slot);
      }
    }
    // The current page: the first one mostly in the scroller's own view.
    const view = this.#scroller.getBoundingClientRect();
    const shown = [...this.#visible.keys()]
      .sort((a, b) => a - b)
      .find((number) => {
        const box = this.#slots[number - 1]?.element.getBoundingClientRect();
        return (
          box !== undefined && box.bottom > view.top + view.height / 3 && box.top < view.bottom
        );
      });
    if (shown !== undefined) this.#setCurrent(shown);
  }

  #setCurrent(page: number): void {
    if (page === this.#current) return;
    this.#current = page;
    this.#onPage(page);
  }

  #size(slot: PageSlot): void {
    const { width, height } = slot.size ?? this.#first;
    slot.element.style.width = `${Math.floor(width * this.#scale)}px`;
    slot.element.style.height = `${Math.floor(height * this.#scale)}px`;
  }

  #draw(slot: PageSlot | undefined): void {
    if (!slot || slot.drawn?.scale === this.#scale) return;
    this.#drop(slot);
    let cancelled = false;
    const drawn: NonNullable<PageSlot['drawn']> = {
      scale: this.#scale,
      task: undefined,
      cancel: () => {
        cancelled = true;
        drawn.task?.cancel();
      },
    };
    slot.drawn = drawn;
    void this.#render(slot, drawn, () => cancelled).catch((error: unknown) => {
      if (cancelled || (error as { name?: string }).name === 'RenderingCancelledException') return;
      slot.element.dataset.failed = error instanceof Error ? error.message : String(error);
    });
  }

  async #render(
    slot: PageSlot,
    drawn: NonNullable<PageSlot['drawn']>,
    cancelled: () => boolean,
  ): Promise<void> {
    const page = await this.#document.getPage(slot.number);
    if (cancelled()) return;
    const viewport = page.getViewport({ scale: drawn.scale });
    const base = page.getViewport({ scale: 1 });
    if (slot.size?.width !== base.width || slot.size?.height !== base.height) {
      slot.size = { width: base.width, height: base.height };
      this.#size(slot);
    }
    const ratio = window.devicePixelRatio || 1;
    const canvas = document.createElement('canvas');
    canvas.width = Math.floor(viewport.width * ratio);
    canvas.height = Math.floor(viewport.height * ratio);
    canvas.className = 'pdf-canvas';
    const context = canvas.getContext('2d');
    if (!context) throw new Error('The browser gave no canvas to draw the page on.');
    drawn.task = page.render({
      canvasContext: context,
      canvas,
      viewport,
      ...(ratio === 1 ? {} : { transform: [ratio, 0, 0, ratio, 0, 0] }),
    });
    await drawn.task.promise;
    const content = await page.getTextContent();
    if (cancelled()) return;
    const layer = document.createElement('div');
    layer.className = 'textLayer';
    slot.element.style.setProperty('--total-scale-factor', String(drawn.scale));
    const text = new this.#pdfjs.TextLayer({
      textContentSource: content,
      container: layer,
      viewport,
    });
    await text.render();
    if (cancelled()) return;
    // The text layer has a span for each item with a string, in order.
    const lines = pdfPageText(content.items).itemLines.filter(
      (_, index) => typeof (content.items[index] as { str?: unknown }).str === 'string',
    );
    text.textDivs.forEach((span, index) => {
      span.dataset.line = String(lines[index] ?? 0);
    });
    slot.element.replaceChildren(canvas, layer);
    slot.element.dataset.rendered = 'true';
    this.#markLines(slot);
    page.cleanup();
  }

  /** Marks the cited lines on `slot`'s text layer (and clears marks of lines no longer cited). */
  #markLines(slot: PageSlot): void {
    const mark = this.#mark?.page === slot.number ? this.#mark : undefined;
    let first: HTMLElement | undefined;
    for (const span of slot.element.querySelectorAll<HTMLElement>('.textLayer [data-line]')) {
      const line = Number(span.dataset.line);
      const hit = mark !== undefined && line >= mark.from && line <= mark.to;
      span.classList.toggle('pdf-mark', hit);
      if (hit) first ??= span;
    }
    if (first && mark && this.#toMark) {
      this.#toMark = false;
      // The cited lines in view: scrolled within the reader only (never the page around it).
      const top = first.getBoundingClientRect().top - this.#scroller.getBoundingClientRect().top;
      this.#scroller.scrollTop += top - this.#scroller.clientHeight / 3;
    }
  }

  #drop(slot: PageSlot): void {
    if (!slot.drawn) return;
    slot.drawn.cancel();
    slot.drawn = undefined;
    slot.element.replaceChildren();
    delete slot.element.dataset.rendered;
  }
}
