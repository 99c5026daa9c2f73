import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type {
  DocumentFormat,
  ExtractedDocument,
  ExtractionFailureReason,
  ExtractionLimits,
  ExtractionReply,
  ExtractionRequest,
} from './extracted.js';

/** The defaults of {@link ExtractionLimits}. */
export const DEFAULT_EXTRACTION_LIMITS: ExtractionLimits = {
  timeoutMs: 120_000,
  maxHeapMb: 512,
  maxPages: 10_000,
  maxTextChars: 32 * 1024 * 1024,
  maxStreamBytes: 64 * 1024 * 1024,
  maxInflatedBytes: 512 * 1024 * 1024,
};

/** The smallest worker heap (MiB) a job gets, whatever its limits say. */
const MIN_HEAP_MB = 8;

/** How long an idle worker is kept for the next job before it is stopped (and its memory freed). */
const IDLE_MS = 5_000;

/**
 * The worker's file beside this module: the built `extract-worker.js` in `dist/`, or the source
 * `.ts` under the tests (Node strips its types).
 */
const WORKER_URL = new URL(
  import.meta.url.endsWith('.ts') ? './extract-worker.ts' : './extract-worker.js',
  import.meta.url,
);

/** The outcome of a job that did not produce a document. */
export interface ExtractionError {
  reason: ExtractionFailureReason;
  message: string;
}

interface Job {
  request: ExtractionRequest;
  timeoutMs: number;
  maxHeapMb: number;
  resolve: (reply: ExtractionReply) => void;
}

/** What a worker tells its pool: it is gone, or free for the next job. */
interface WorkerEvents {
  gone: (worker: ExtractionWorker) => void;
  free: () => void;
}

/** One worker with its heap limit, doing one job at a time. */
class ExtractionWorker {
  readonly maxHeapMb: number;
  readonly #worker: Worker;
  readonly #events: WorkerEvents;
  #job: Job | undefined;
  #idle: NodeJS.Timeout | undefined;
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(maxHeapMb: number, events: WorkerEvents) {
    this.maxHeapMb = maxHeapMb;
    this.#events = events;
    this.#worker = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: 32 },
      stdout: true,
      stderr: true,
    });
    // The worker's own output (a library's warnings) is never the daemon's.
    this.#worker.stdout.resume();
    this.#worker.stderr.resume();
    this.#worker.on('message', (reply: ExtractionReply) => {
      if (reply.id === this.#job?.request.id) this.#finish(reply);
    });
    this.#worker.on('error', (error) => {
      const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.#fail(
        outOfMemory ? 'memory_limit' : 'damaged',
        outOfMemory
          ? `extracting it needed more than ${this.maxHeapMb} MiB of memory`
          : `the extraction failed (${error.message})`,
      );
    });
    this.#worker.on('exit', () => this.#fail('damaged', 'the extraction stopped unexpectedly'));
    this.#worker.unref();
  }

  /** Whether it cannot take a job now. */
  get busy(): boolean {
    return this.#job !== undefined || this.#stopped;
  }

  run(job: Job): void {
    clearTimeout(this.#idle);
    this.#job = job;
    this.#worker.ref();
    this.#timer = setTimeout(() => {
      this.#fail('time_limit', `extracting it took longer than ${job.timeoutMs / 1000} s`);
    }, job.timeoutMs);
    this.#worker.postMessage(job.request);
  }

  #finish(reply: ExtractionReply): void {
    const job = this.#job as Job;
    clearTimeout(this.#timer);
    this.#job = undefined;
    this.#worker.unref();
    // A quiet worker goes, so a burst of reads pays its start once and an idle daemon holds nothing.
    this.#idle = setTimeout(() => this.stop(), IDLE_MS).unref();
    job.resolve(reply);
    this.#events.free();
  }

  /** Ends the current job with a failure and stops the worker (its state is not to be trusted). */
  #fail(reason: ExtractionFailureReason, message: string): void {
    const job = this.#job;
    this.#job = undefined;
    this.stop();
    job?.resolve({ id: job.request.id, ok: false, reason, message });
  }

  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#idle);
    clearTimeout(this.#timer);
    this.#events.gone(this);
    void this.#worker.terminate();
  }
}

/** The workers of this process: at most two, and one less than the cores (at least one). */
class ExtractionPool {
  readonly #workers = new Set<ExtractionWorker>();
  readonly #queue: Job[] = [];
  readonly #size = Math.max(1, Math.min(2, availableParallelism() - 1));
  #nextId = 0;

  extract(
    format: DocumentFormat,
    bytes: Uint8Array,
    limits: ExtractionLimits,
  ): Promise<ExtractionReply> {
    const { timeoutMs, ...workerLimits } = limits;
    // A heap too small to start in would end the whole process (V8 fails while deserializing).
    const maxHeapMb = Math.max(MIN_HEAP_MB, limits.maxHeapMb);
    return new Promise((resolve) => {
      const { maxHeapMb: _heap, ...jobLimits } = workerLimits;
      const request: ExtractionRequest = { id: ++this.#nextId, format, bytes, limits: jobLimits };
      this.#queue.push({ request, timeoutMs, maxHeapMb, resolve });
      this.#dispatch();
    });
  }

  /** Hands queued jobs to free workers of their heap limit, starting or replacing workers. */
  #dispatch(): void {
    for (;;) {
      const job = this.#queue[0];
      if (job === undefined) return;
      const free = [...this.#workers].filter((worker) => !worker.busy);
      let worker = free.find((candidate) => candidate.maxHeapMb === job.maxHeapMb);
      if (worker === undefined && (this.#workers.size < this.#size || free.length > 0)) {
        // A job with another heap limit replaces an idle worker (tests; the daemon uses one).
        free[0]?.stop();
        worker = new ExtractionWorker(job.maxHeapMb, {
          gone: (gone) => {
            this.#workers.delete(gone);
            queueMicrotask(() => this.#dispatch());
          },
          free: () => this.#dispatch(),
        });
        this.#workers.add(worker);
      }
      if (worker === undefined) return;
      this.#queue.shift();
      worker.run(job);
    }
  }
}

const pool = new ExtractionPool();

/**
 * Extracts the text of a document in a worker thread, never on the caller's event loop, within
 * `limits` (defaults {@link DEFAULT_EXTRACTION_LIMITS}): a job past its time is stopped with its
 * worker, a worker past its heap dies alone, and the process keeps serving. Resolves with the
 * document or with why it could not be read; never rejects for the document's sake.
 */
export async function extractDocument(
  format: DocumentFormat,
  bytes: Uint8Array,
  limits: Partial<ExtractionLimits> = {},
): Promise<ExtractedDocument | ExtractionError> {
  const reply = await pool.extract(format, bytes, { ...DEFAULT_EXTRACTION_LIMITS, ...limits });
  return reply.ok ? reply.document : { reason: reply.reason, message: reply.message };
}
