import { availableParallelism } from 'node:os';
import { joinFormattedSlices } from './document-format.js';
import {
  type DocumentFormat,
  type DocumentText,
  ExtractionFailure,
  type ExtractionFailureReason,
  type ExtractionLimits,
  type ExtractionProgress,
  type ExtractionReply,
  type ExtractionRequest,
} from './extracted.js';
import { type ExtractionJob, ExtractionProcess } from './extraction-process.js';

/** The defaults of {@link ExtractionLimits}. */
export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  timeoutMs: 120_000,
  maxHeapMb: 512,
  maxResidentMb: 1536,
  maxPages: 10_000,
  maxTextChars: 32 * 1024 * 1024,
  maxStreamBytes: 64 * 1024 * 1024,
  maxInflatedBytes: 512 * 1024 * 1024,
  ocrPageTimeoutMs: 60_000,
};

/** What one extraction is asked beyond its bytes and bounds. */
export interface ExtractionCall {
  /** The OCR languages for pages without a text layer (spec R120); none: such pages stay empty. */
  ocrLanguages?: readonly string[] | undefined;
  /** Told the pages done of the whole, as the processes read them. */
  onProgress?: ((progress: { done: number; total: number }) => void) | undefined;
  /** Stops the extraction (its processes are stopped; the outcome is `cancelled`). */
  signal?: AbortSignal | undefined;
}

/** The outcome of a job that did not produce a document. */
export interface ExtractionError {
  reason: ExtractionFailureReason;
  message: string;
}

/** A PDF at least this large is read by all the pool's processes at once, a run of pages each. */
const SPLIT_MIN_BYTES = 32 * 1024;

/** The extraction processes of this daemon: at most two, and no more than the cores. */
class ExtractionPool {
  readonly #processes = new Set<ExtractionProcess>();
  readonly #queue: ExtractionJob[] = [];
  readonly #size = Math.max(1, Math.min(2, availableParallelism()));
  #nextId = 0;

  /** The document's text, or why not: a large PDF in slices over the processes, joined here. */
  async extract(
    format: DocumentFormat,
    bytes: Uint8Array,
    limits: ExtractionLimits,
    call: ExtractionCall = {},
  ): Promise<DocumentText | ExtractionError> {
    const count = format === 'pdf' && bytes.length >= SPLIT_MIN_BYTES ? this.#size : 1;
    const made: { done: number; total: number }[] = [];
    const progressOf = (index: number) => (progress: ExtractionProgress['progress']) => {
      made[index] = { done: progress.done, total: progress.total };
      const known = made.filter(Boolean);
      if (known.length < count) return;
      const sum = (key: 'done' | 'total') => known.reduce((all, one) => all + one[key], 0);
      call.onProgress?.({ done: sum('done'), total: sum('total') });
    };
    const replies = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        this.#run(
          { format, bytes, limits, ...(count === 1 ? {} : { slice: { index, count } }) },
          { ...call, onProgress: progressOf(index) },
        ),
      ),
    );
    const slices = [];
    for (const reply of replies) {
      if (!reply.ok) return { reason: reply.reason, message: reply.message };
      if ('document' in reply && count === 1) return reply.document;
      if (!('slice' in reply))
        return { reason: 'damaged', message: 'the extraction answered out of turn' };
      slices.push(reply.slice);
    }
    try {
      return joinFormattedSlices(slices, limits.maxTextChars);
    } catch (error) {
      if (error instanceof ExtractionFailure)
        return { reason: error.reason, message: error.message };
      throw error;
    }
  }

  /** Page `page` of a PDF as PNG bytes, or why not. */
  async render(
    bytes: Uint8Array,
    page: number,
    limits: ExtractionLimits,
    signal?: AbortSignal,
  ): Promise<Uint8Array | ExtractionError> {
    const reply = await this.#run({ format: 'pdf', bytes, limits, renderPage: page }, { signal });
    if (!reply.ok) return { reason: reply.reason, message: reply.message };
    return 'image' in reply
      ? reply.image
      : { reason: 'damaged', message: 'the extraction answered out of turn' };
  }

  #run(
    job: {
      format: DocumentFormat;
      bytes: Uint8Array;
      limits: ExtractionLimits;
      slice?: ExtractionRequest['slice'];
      renderPage?: number;
    },
    call: ExtractionCall & { onProgress?: ExtractionJob['onProgress'] },
  ): Promise<ExtractionReply> {
    const { timeoutMs, maxHeapMb, maxResidentMb, ...jobLimits } = job.limits;
    const { signal } = call;
    const id = ++this.#nextId;
    if (signal?.aborted) return Promise.resolve(cancelledReply(id));
    return new Promise((resolve) => {
      const abort = () => {
        const at = this.#queue.indexOf(queued);
        if (at !== -1) {
          this.#queue.splice(at, 1);
          queued.resolve(cancelledReply(id));
          return;
        }
        for (const process of this.#processes) process.cancel(queued);
      };
      const queued: ExtractionJob = {
        request: {
          id,
          format: job.format,
          bytes: job.bytes,
          limits: jobLimits,
          ...(call.ocrLanguages === undefined ? {} : { ocrLanguages: call.ocrLanguages }),
          ...(job.slice === undefined ? {} : { slice: job.slice }),
          ...(job.renderPage === undefined ? {} : { renderPage: job.renderPage }),
        },
        limits: { timeoutMs, maxHeapMb, maxResidentMb },
        resolve: (reply) => {
          signal?.removeEventListener('abort', abort);
          resolve(reply);
        },
        ...(call.onProgress === undefined ? {} : { onProgress: call.onProgress }),
      };
      signal?.addEventListener('abort', abort, { once: true });
      this.#queue.push(queued);
      this.#dispatch();
    });
  }

  /** Hands queued jobs to free processes of their heap bound, starting or replacing processes. */
  #dispatch(): void {
    for (;;) {
      const job = this.#queue[0];
      if (job === undefined) return;
      const free = [...this.#processes].filter((process) => !process.busy);
      let process = free.find((candidate) => candidate.maxHeapMb === job.limits.maxHeapMb);
      if (process === undefined && (this.#processes.size < this.#size || free.length > 0)) {
        // A job with another heap bound replaces an idle process (tests; the daemon uses one).
        free[0]?.stop();
        process = new ExtractionProcess(job.limits.maxHeapMb, {
          gone: (gone) => {
            this.#processes.delete(gone);
            queueMicrotask(() => this.#dispatch());
          },
          free: () => this.#dispatch(),
        });
        this.#processes.add(process);
      }
      if (process === undefined) return;
      this.#queue.shift();
      process.run(job);
    }
  }
}

/** The outcome of a job its caller stopped. */
const cancelledReply = (id: number): ExtractionReply => ({
  id,
  ok: false,
  reason: 'cancelled',
  message: 'the extraction was cancelled',
});

const pool = new ExtractionPool();

/**
 * Extracts the marked text of a document in a separate process, never on the caller's event loop and
 * never in its memory, within `limits` (defaults {@link DEFAULT_EXTRACTION_LIMITS}): a job past its
 * time or memory is stopped with its process, and the daemon keeps serving. Resolves with the
 * document or with why it could not be read; never rejects for the document's sake.
 */
export async function extractDocument(
  format: DocumentFormat,
  bytes: Uint8Array,
  limits: Partial<ExtractionLimits> = {},
  call: ExtractionCall = {},
): Promise<DocumentText | ExtractionError> {
  return pool.extract(format, bytes, { ...DEFAULT_EXTRACTION_LIMITS, ...limits }, call);
}

/** Page `page` (1-based) of a PDF drawn as a PNG in an extraction process, or why not. */
export async function renderPdfPageImage(
  bytes: Uint8Array,
  page: number,
  limits: Partial<ExtractionLimits> = {},
  signal?: AbortSignal,
): Promise<Uint8Array | ExtractionError> {
  return pool.render(bytes, page, { ...DEFAULT_EXTRACTION_LIMITS, ...limits }, signal);
}
