/**
 * PDF pages drawn as images in the extraction process (spec R120): with PDF.js (the build `unpdf`
 * ships) on a `@napi-rs/canvas` canvas (prebuilt, no network), for OCR and for a model that sees.
 * Contract: this file runs under Node's type stripping in the worker: `.ts` imports, no enums.
 */
import { ExtractionFailure } from './extracted.ts';
import { grayOf, MAX_SIDE, OCR_DPI, pgm } from './page-ink.ts';

/** The resolution of a page shown to a model (the provider scales it down further). */
const VIEW_DPI = 110;

type Canvas = import('@napi-rs/canvas').Canvas;
type PdfDocument = Awaited<ReturnType<typeof import('unpdf').getDocumentProxy>>;

/** A PDF opened for drawing its pages (its own PDF.js document, with a canvas factory). */
export interface PageRenderer {
  /** Page `number` (1-based) in 8-bit gray as PGM bytes, for OCR. */
  forOcr(number: number): Promise<Uint8Array>;
  /** Page `number` (1-based) as PNG bytes, for a model that sees. */
  forView(number: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** Opens `bytes` (a PDF) for drawing; `damaged` when PDF.js cannot open it. */
export async function openPageRenderer(bytes: Uint8Array): Promise<PageRenderer> {
  const { createIsomorphicCanvasFactory, getDocumentProxy } = await import('unpdf');
  const canvasImport = () => import('@napi-rs/canvas');
  const CanvasFactory = await createIsomorphicCanvasFactory(canvasImport);
  let document: PdfDocument;
  try {
    // A copy: PDF.js may take over the buffer it is given.
    document = await getDocumentProxy(new Uint8Array(bytes), {
      CanvasFactory,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
      verbosity: 0,
    });
  } catch (error) {
    throw new ExtractionFailure('damaged', (error as Error).message ?? String(error));
  }
  const draw = async (number: number, dpi: number): Promise<Canvas> => {
    const page = await document.getPage(number);
    const base = page.getViewport({ scale: 1 });
    const scale = Math.min(dpi / 72, MAX_SIDE / Math.max(base.width, base.height));
    const viewport = page.getViewport({ scale });
    const factory = new CanvasFactory();
    const { canvas, context } = factory.create(viewport.width, viewport.height) as {
      canvas: Canvas;
      context: ReturnType<Canvas['getContext']>;
    };
    context.fillStyle = 'white';
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvas, canvasContext: context, viewport } as never).promise;
    page.cleanup();
    return canvas;
  };
  return {
    async forOcr(number) {
      const canvas = await draw(number, OCR_DPI);
      const { width, height } = canvas;
      const rgba = canvas.getContext('2d').getImageData(0, 0, width, height).data;
      return pgm(width, height, (gray, offset) => {
        for (let from = 0, to = offset; to < gray.length; from += 4, to += 1) {
          gray[to] = grayOf(rgba[from] ?? 255, rgba[from + 1] ?? 255, rgba[from + 2] ?? 255);
        }
      });
    },
    async forView(number) {
      return (await draw(number, VIEW_DPI)).encode('png');
    },
    async close() {
      await document.loadingTask.destroy().catch(() => undefined);
    },
  };
}
