import { constants, inflateSync } from 'node:zlib';
import { pdfPageText } from '@repa/protocol/pdf-page-text';
import {
  type ExtractedPart,
  ExtractionFailure,
  type ExtractionProgress,
  type ExtractionRequest,
  type PdfSlice,
} from './extracted.ts';
import { recognise } from './ocr-text.ts';
import { openPageRenderer, type PageRenderer } from './page-image.ts';
import { type PageInk, pageInk } from './page-ink.ts';

const STREAM = Buffer.from('stream', 'latin1');
const END_STREAM = Buffer.from('endstream', 'latin1');
/** How far before `stream` a stream's dictionary is looked for. */
const DICTIONARY_REACH = 4096;

/**
 * Refuses a decompression bomb before PDF.js sees the file: every Flate stream that text
 * extraction would inflate (content streams, fonts, object streams; images are never inflated for
 * text) is inflated here once with Node's zlib, bounded by `maxOutputLength`, so a stream past
 * `maxStreamBytes` (or all of them past `maxInflatedBytes`) is found after inflating only that
 * much. PDF.js grows its buffers without a bound and holds them outside the worker's heap limit.
 * Streams with other filters, or that do not inflate (encrypted ones), are left to PDF.js.
 */
export function refuseDecompressionBomb(
  bytes: Uint8Array,
  limits: ExtractionRequest['limits'],
): void {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let total = 0;
  for (let at = data.indexOf(STREAM); at !== -1; at = data.indexOf(STREAM, at + 1)) {
    if (at >= 3 && data.toString('latin1', at - 3, at) === 'end') continue;
    let start = at + STREAM.length;
    if (data[start] === 0x0d) start += 1;
    if (data[start] !== 0x0a && data[start - 1] !== 0x0d) continue;
    if (data[start] === 0x0a) start += 1;
    const dictionary = data.toString('latin1', Math.max(0, at - DICTIONARY_REACH), at);
    const open = dictionary.lastIndexOf('obj');
    const own = open === -1 ? dictionary : dictionary.slice(open);
    if (!/\/(FlateDecode|Fl)\b/u.test(own) || /\/Subtype\s*\/Image\b/u.test(own)) continue;
    const end = data.indexOf(END_STREAM, start);
    if (end === -1) break;
    const left = limits.maxInflatedBytes - total;
    const bound = Math.min(limits.maxStreamBytes, left);
    try {
      total += inflateSync(data.subarray(start, end), {
        maxOutputLength: bound,
        finishFlush: constants.Z_SYNC_FLUSH,
      }).length;
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        throw new ExtractionFailure(
          'decompression_bomb',
          bound === limits.maxStreamBytes
            ? `a compressed stream in it inflates to more than ${limits.maxStreamBytes} bytes (a decompression bomb?)`
            : `its compressed streams inflate to more than ${limits.maxInflatedBytes} bytes in all (a decompression bomb?)`,
        );
      }
      // Not a plain zlib stream (another filter first, or encrypted): PDF.js decides.
    }
    at = end;
  }
}

/** How {@link pdfText} reads pages without a text layer, and whom it tells its progress. */
export interface PdfTextOptions {
  /** The OCR languages; without them a page without a text layer is left empty. */
  ocrLanguages?: readonly string[] | undefined;
  /** Told after each page (and before each page recognised by OCR). */
  onProgress?: (progress: ExtractionProgress['progress']) => void;
}

/**
 * A page without a text layer, recognised by OCR (spec R120), or why it was not: the pixels of its
 * one scanned image as they are, else the page drawn.
 */
async function recognisedPage(
  image: () => Promise<Uint8Array>,
  languages: readonly string[],
  limits: ExtractionRequest['limits'],
): Promise<ExtractedPart> {
  try {
    const { text, recognised } = await recognise(await image(), languages, limits.ocrPageTimeoutMs);
    return { text, recognised };
  } catch (error) {
    if (!(error instanceof ExtractionFailure)) throw error;
    if (error.reason === 'ocr_unavailable') return { text: '', unrecognised: error.message };
    return { text: '', failed: `${error.reason}: ${error.message}` };
  }
}

/**
 * The text layer of the pages of a PDF (all of them, or slice `slice.index` of `slice.count` equal
 * runs), with PDF.js (the serverless build `unpdf` ships: no worker of its own, no network). A page
 * without text (a scan) is recognised by OCR in `ocrLanguages` (spec R120), within its own time
 * bound (past it the page fails `time_limit` and the next is read): its one scanned image as it
 * is, else the page drawn; a page with nothing drawn on it is blank and not recognised. Without
 * languages such a page has empty text. Throws `encrypted` for a PDF that needs a password, `damaged` for one PDF.js
 * cannot read, `page_limit` and `text_limit` past the limits.
 */
export async function pdfText(
  bytes: Uint8Array,
  limits: ExtractionRequest['limits'],
  slice: { index: number; count: number } = { index: 0, count: 1 },
  options: PdfTextOptions = {},
): Promise<PdfSlice> {
  refuseDecompressionBomb(bytes, limits);
  const pdfjs = await import('unpdf/pdfjs');
  const { getDocument } = pdfjs;
  const languages = options.ocrLanguages ?? [];
  let renderer: PageRenderer | undefined;
  const task = getDocument({
    data: bytes,
    disableFontFace: true,
    useWasm: false,
    useWorkerFetch: false,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
  });
  try {
    let document: Awaited<typeof task.promise>;
    try {
      document = await task.promise;
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'PasswordException') {
        throw new ExtractionFailure('encrypted', 'it is encrypted with a password');
      }
      throw new ExtractionFailure('damaged', damage(error));
    }
    if (document.numPages > limits.maxPages) {
      throw new ExtractionFailure(
        'page_limit',
        `it has ${document.numPages} pages, more than the ${limits.maxPages} Repa extracts`,
      );
    }
    const parts: ExtractedPart[] = [];
    let chars = 0;
    const { numPages } = document;
    const first = Math.floor((slice.index * numPages) / slice.count) + 1;
    const last = Math.floor(((slice.index + 1) * numPages) / slice.count);
    const total = last - first + 1;
    options.onProgress?.({ done: 0, total });
    for (let number = first; number <= last; number++) {
      let part: ExtractedPart;
      // What a page without a text layer has drawn on it, when OCR is to read it.
      let ink: PageInk | undefined;
      try {
        const page = await document.getPage(number);
        part = { text: pdfPageText((await page.getTextContent()).items).text };
        if (part.text === '' && languages.length > 0) ink = await pageInk(pdfjs, page);
        page.cleanup();
      } catch (error) {
        // One damaged page does not hide the others; a file with no readable page is damaged.
        parts.push({ text: '', failed: damage(error) });
        options.onProgress?.({ done: number - first + 1, total });
        continue;
      }
      if (ink !== undefined && 'blank' in ink) part = { text: '', blank: true };
      else if (ink !== undefined) {
        options.onProgress?.({ done: number - first, total, ocr: true });
        const scan = 'scan' in ink ? ink.scan : undefined;
        const image = async () => {
          if (scan !== undefined) return scan;
          renderer ??= await openPageRenderer(bytes);
          return renderer.forOcr(number);
        };
        part = await recognisedPage(image, languages, limits);
      }
      options.onProgress?.({ done: number - first + 1, total });
      const { text } = part;
      chars += text.length;
      if (chars > limits.maxTextChars) {
        throw new ExtractionFailure(
          'text_limit',
          `its text passes ${limits.maxTextChars} characters (at page ${number})`,
        );
      }
      parts.push(part);
    }
    return { pages: numPages, first, parts };
  } finally {
    await renderer?.close();
    await task.destroy().catch(() => undefined);
  }
}

/** PDF.js's word for what is wrong, e.g. "Invalid PDF structure" or a stack overflow. */
function damage(error: unknown): string {
  const message =
    error instanceof Error || typeof error === 'object' ? (error as Error).message : '';
  return typeof message === 'string' && message !== '' ? message : String(error);
}
