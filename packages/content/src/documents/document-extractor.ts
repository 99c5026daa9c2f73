import { availableParallelism } from 'node:os';
import type {
  DocumentFormat,
  DocumentText,
  ExtractionFailureReason,
  ExtractionLimits,
  ExtractionReply,
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

/** The extraction processes of this daemon: at most two, and one less than the cores (at least one). */
class ExtractionPool {
  readonly #processes = new Set<ExtractionProcess>();
  readonly #queue: ExtractionJob[] = [];
  readonly #size = Math.max(1, Math.min(2, availableParallelism() - 1));
  #nextId = 0;

  extract(
    format: DocumentFormat,
    bytes: Uint8Array,
    limits: ExtractionLimits,
  ): Promise<ExtractionReply> {
    const { timeoutMs, maxHeapMb, maxResidentMb, ...jobLimits } = limits;
    return new Promise((resolve) => {
      this.#queue.push({
        request: { id: ++this.#nextId, format, bytes, limits: jobLimits },
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
  const reply = await pool.extract(format, bytes, { ...DEFAULT_EXTRACTION_LIMITS, ...limits });
  return reply.ok ? reply.document : { reason: reply.reason, message: reply.message };
}
