/**
 * The document extraction worker (a `worker_threads` Worker, spec R74): PDF, DOCX, EPUB and HTML
 * to text, off the daemon's event loop, under the heap and time limits its parent sets. It answers
 * each job with the text or with why it failed; the parent stops it when a job runs too long.
 * Contract: this file and the files it imports run under Node's type stripping in tests: `.ts`
 * imports, no enums, no parameter properties.
 */
import { parentPort } from 'node:worker_threads';
import { epubText } from './epub-text.ts';
import {
  type ExtractedDocument,
  ExtractionFailure,
  type ExtractionReply,
  type ExtractionRequest,
} from './extracted.ts';
import { docxText, htmlText } from './markup-text.ts';
import { pdfText } from './pdf-text.ts';

function extract(request: ExtractionRequest): Promise<ExtractedDocument> | ExtractedDocument {
  switch (request.format) {
    case 'pdf':
      return pdfText(request.bytes, request.limits);
    case 'docx':
      return docxText(request.bytes, request.limits);
    case 'epub':
      return epubText(request.bytes, request.limits);
    case 'html':
      return htmlText(request.bytes, request.limits);
  }
}

async function answer(request: ExtractionRequest): Promise<ExtractionReply> {
  try {
    return { id: request.id, ok: true, document: await extract(request) };
  } catch (error) {
    if (error instanceof ExtractionFailure) {
      return { id: request.id, ok: false, reason: error.reason, message: error.message };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { id: request.id, ok: false, reason: 'damaged', message };
  }
}

parentPort?.on('message', (request: ExtractionRequest) => {
  void answer(request).then((reply) => parentPort?.postMessage(reply));
});
