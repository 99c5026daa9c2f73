/**
 * The document extraction process (a child of the daemon, spec R74): PDF, DOCX, EPUB and HTML to
 * text, off the daemon's event loop and out of its memory, under the heap bound its parent starts
 * it with. It answers each job over the IPC channel with the text or with why it failed; the
 * parent stops it when a job runs too long or grows too large.
 * Contract: this file and the files it imports run under Node's type stripping in tests: `.ts`
 * imports, no enums, no parameter properties.
 */
import { formatDocument, formatPdfSlice, joinFormattedSlices } from './document-format.ts';
import {
  type DocumentText,
  ExtractionFailure,
  type ExtractionReply,
  type ExtractionRequest,
} from './extracted.ts';
import { recognise } from './ocr-text.ts';
import { openPageRenderer } from './page-image.ts';
import { type PdfTextOptions, pdfText } from './pdf-text.ts';

/** How often at most a job's progress is told (a page recognised by OCR is always told). */
const PROGRESS_EVERY_MS = 200;

/** The progress of job `id`, told to the parent at most every {@link PROGRESS_EVERY_MS}. */
function progressOf(request: ExtractionRequest): PdfTextOptions {
  let last = 0;
  return {
    ocrLanguages: request.ocrLanguages,
    onProgress: (progress) => {
      const now = Date.now();
      if (progress.ocr !== true && now - last < PROGRESS_EVERY_MS) return;
      last = now;
      process.send?.({ id: request.id, progress });
    },
  };
}

/**
 * An image file's text by OCR (spec R120): one part; `ocr_unavailable` without the engine, or with
 * no languages (OCR off).
 */
async function imageText(request: ExtractionRequest): Promise<DocumentText> {
  const { text, recognised } = await recognise(
    request.bytes,
    request.ocrLanguages ?? [],
    request.limits.ocrPageTimeoutMs,
  );
  return formatDocument({ format: 'image', parts: [{ text, recognised }] });
}

async function extract(request: ExtractionRequest): Promise<DocumentText> {
  switch (request.format) {
    case 'pdf':
      // The whole PDF as one run of its pages, formatted and checked as the runs of a split read are.
      return joinFormattedSlices(
        [
          formatPdfSlice(
            await pdfText(request.bytes, request.limits, undefined, progressOf(request)),
          ),
        ],
        request.limits.maxTextChars,
      );
    case 'image':
      return imageText(request);
    // The libraries of the other formats load with their first document, not with the process
    // (a PDF's first read does not wait for them).
    case 'docx': {
      const { docxText } = await import('./markup-text.ts');
      return formatDocument(await docxText(request.bytes, request.limits));
    }
    case 'epub': {
      const { epubText } = await import('./epub-text.ts');
      return formatDocument(await epubText(request.bytes, request.limits));
    }
    case 'html': {
      const { htmlText } = await import('./markup-text.ts');
      return formatDocument(htmlText(request.bytes, request.limits));
    }
  }
}

async function answer(request: ExtractionRequest): Promise<ExtractionReply> {
  // The channel hands a Buffer over as a Buffer; PDF.js takes plain Uint8Arrays only.
  const { bytes } = request;
  request.bytes = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    if (request.renderPage !== undefined) {
      const renderer = await openPageRenderer(request.bytes);
      try {
        return { id: request.id, ok: true, image: await renderer.forView(request.renderPage) };
      } finally {
        await renderer.close();
      }
    }
    if (request.slice !== undefined) {
      const slice = await pdfText(
        request.bytes,
        request.limits,
        request.slice,
        progressOf(request),
      );
      return { id: request.id, ok: true, slice: formatPdfSlice(slice) };
    }
    return { id: request.id, ok: true, document: await extract(request) };
  } catch (error) {
    if (error instanceof ExtractionFailure) {
      return { id: request.id, ok: false, reason: error.reason, message: error.message };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { id: request.id, ok: false, reason: 'damaged', message };
  }
}

process.on('message', (request: ExtractionRequest) => {
  void answer(request).then((reply) => process.send?.(reply));
});
// The parent gone, there is no one to answer.
process.on('disconnect', () => process.exit(0));
