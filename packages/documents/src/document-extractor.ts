import { availableParallelism } from 'node:os';
import { joinFormattedSlices } from './document-format.js';
import {
  type DocumentFormat,
  type DocumentText,
  ExtractionFailure,
  type ExtractionFailureReason,
  type ExtractionLimits,
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
};

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
  ): Promise<DocumentText | ExtractionError> {
    const count = format === 'pdf' && bytes.length >= SPLIT_MIN_BYTES ? this.#size : 1;
    if (count === 1) {
      const reply = await this.#run(format, bytes, limits);
      if (!reply.ok) return { reason: reply.reason, message: reply.message };
      return 'document' in reply
        ? reply.document
        : { reason: 'damaged', message: 'the extraction answered out of turn' };
    }
    const replies = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        this.#run(format, bytes, limits, { index, count }),
      ),
    );
    const slices = [];
    for (const reply of replies) {
      if (!reply.ok) return { reason: reply.reason, message: reply.message };
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

  #run(
    format: DocumentFormat,
    bytes: Uint8Array,
    limits: ExtractionLimits,
    slice?: ExtractionRequest['slice'],
  ): Promise<ExtractionReply> {
    const { timeoutMs, maxHeapMb, maxResidentMb, ...jobLimits } = limits;
    return new Promise((resolve) => {
      this.#queue.push({
        request: {
          id: ++this.#nextId,
          format,
          bytes,
          limits: jobLimits,
          ...(slice === undefined ? {} : { slice }),
        },
        limits: { timeoutMs, maxHeapMb, maxResidentMb },
        resolve,
      });
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
): Promise<DocumentText | ExtractionError> {
  return pool.extract(format, bytes, { ...DEFAULT_EXTRACTION_LIMITS, ...limits });
}
