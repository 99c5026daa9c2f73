import { type ChildProcess, fork } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import type {
  ExtractionFailureReason,
  ExtractionLimits,
  ExtractionProgress,
  ExtractionReply,
  ExtractionRequest,
} from './extracted.js';

/** How long an idle process is kept for the next job before it is stopped. */
const IDLE_MS = 5_000;
/**
 * The niceness of an extraction process (a background job's usual 10): on a core it shares with the
 * daemon, the daemon's requests go first; on an idle core it runs at full speed.
 */
const NICENESS = 10;
/** How often a busy process's resident size is looked at. */
const WATCH_MS = 100;

/**
 * The worker's file: under the tests the source `extract-worker.ts` beside this module (Node strips
 * its types), else the built worker found through the package's own `./worker` export.
 */
const WORKER_FILE = import.meta.url.endsWith('.ts')
  ? fileURLToPath(new URL('./extract-worker.ts', import.meta.url))
  : createRequire(import.meta.url).resolve('@repa/documents/worker');

/** One job for a process: the request, its bounds, and where its answer and progress go. */
export interface ExtractionJob {
  request: ExtractionRequest;
  limits: Pick<ExtractionLimits, 'timeoutMs' | 'maxHeapMb' | 'maxResidentMb'>;
  resolve: (reply: ExtractionReply) => void;
  onProgress?: (progress: ExtractionProgress['progress']) => void;
}

/** What a process tells its pool: it is gone, or free for the next job. */
export interface ProcessEvents {
  gone: (process: ExtractionProcess) => void;
  free: () => void;
}

/**
 * A process's resident size in MiB from `/proc` (Linux), with its children's (the OCR command it
 * runs, spec R120), or `undefined` where there is none.
 */
export async function residentMb(pid: number): Promise<number | undefined> {
  const own = async (id: string) =>
    Number((await readFile(`/proc/${id}/statm`, 'utf8')).split(' ')[1]);
  try {
    let pages = await own(String(pid));
    const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
    for (const child of children.split(' ').filter(Boolean)) {
      pages += await own(child).catch(() => 0);
    }
    return (pages * 4096) / 1024 / 1024;
  } catch {
    return undefined;
  }
}

/**
 * One extraction process (spec R74): a child Node process, not a thread of the daemon, so what a
 * document makes it allocate (PDF.js's buffers live outside the JavaScript heap) is never the
 * daemon's memory, and running out of it ends the child alone. It does one job at a time within
 * its heap (`--max-old-space-size`), its resident size (watched) and its time, and is stopped when
 * a job passes one of them, or after {@link IDLE_MS} without work.
 */
export class ExtractionProcess {
  readonly maxHeapMb: number;
  readonly #child: ChildProcess;
  readonly #events: ProcessEvents;
  #job: ExtractionJob | undefined;
  #idle: NodeJS.Timeout | undefined;
  #timer: NodeJS.Timeout | undefined;
  /** When the current job must be done by (ms since the epoch), and the time it was allowed. */
  #deadline = 0;
  #allowed = 0;
  #watch: NodeJS.Timeout | undefined;
  /** Why this process stopped a job (the exit that follows is that, not a crash). */
  #stopping: { reason: ExtractionFailureReason; message: string } | undefined;
  #stopped = false;
  /** Whether V8 said on standard error that the child ran out of heap. */
  #heapExhausted = false;

  constructor(maxHeapMb: number, events: ProcessEvents) {
    this.maxHeapMb = maxHeapMb;
    this.#events = events;
    this.#child = fork(WORKER_FILE, [], {
      // Never the parent's flags (a test runner's loaders): only the heap bound.
      execArgv: [`--max-old-space-size=${maxHeapMb}`],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      // Its own process group, so that stopping it stops the OCR command it runs too (R120).
      detached: true,
    });
    try {
      if (this.#child.pid !== undefined) setPriority(this.#child.pid, NICENESS);
    } catch {
      // A system that will not lower a child's priority runs it at the daemon's.
    }
    this.#child.stderr?.on('data', (chunk: Buffer) => {
      // V8's report of a heap it could not grow (its GC log, then a FATAL ERROR line).
      if (/Last few GCs|heap limit|heap out of memory/u.test(chunk.toString('utf8'))) {
        this.#heapExhausted = true;
      }
    });
    this.#child.on('message', (message: ExtractionReply | ExtractionProgress) => {
      const job = this.#job;
      if (message.id !== job?.request.id) return;
      if (!('progress' in message)) {
        this.#finish(message);
        return;
      }
      // A page recognised by OCR has its own time bound, on top of the job's (spec R120).
      if (message.progress.ocr) this.#arm(job.request.limits.ocrPageTimeoutMs);
      job.onProgress?.(message.progress);
    });
    this.#child.on('error', (error) =>
      this.#fail('damaged', `the extraction failed (${error.message})`),
    );
    // `close`, not `exit`: V8's last words on standard error are read by then.
    this.#child.on('close', () => {
      const heap = this.#heapExhausted;
      this.#fail(
        heap ? 'memory_limit' : 'damaged',
        heap
          ? `extracting it needed more than ${this.maxHeapMb} MiB of memory`
          : 'the extraction stopped unexpectedly',
      );
    });
    this.#release();
  }

  /** Whether it cannot take a job now. */
  get busy(): boolean {
    return this.#job !== undefined || this.#stopped;
  }

  run(job: ExtractionJob): void {
    clearTimeout(this.#idle);
    this.#job = job;
    // A busy process keeps its parent alive; an idle one never does (nor its channel and pipe).
    this.#child.ref();
    (this.#child.channel as { ref?: () => void } | undefined)?.ref?.();
    (this.#child.stderr as { ref?: () => void } | null)?.ref?.();
    this.#deadline = Date.now();
    this.#allowed = 0;
    this.#arm(job.limits.timeoutMs);
    const { pid } = this.#child;
    const watch = async () => {
      const resident = pid === undefined ? undefined : await residentMb(pid);
      if (this.#job !== job) return;
      if (resident !== undefined && resident > job.limits.maxResidentMb) {
        this.#stop(
          'memory_limit',
          `extracting it needed more than ${job.limits.maxResidentMb} MiB of memory`,
        );
        return;
      }
      this.#watch = setTimeout(watch, WATCH_MS);
    };
    this.#watch = setTimeout(watch, WATCH_MS);
    this.#child.send(job.request);
  }

  /** Moves the job's deadline `ms` later (from its start, then from each page recognised). */
  #arm(ms: number): void {
    clearTimeout(this.#timer);
    this.#deadline += ms;
    this.#allowed += ms;
    this.#timer = setTimeout(
      () => this.#stop('time_limit', `extracting it took longer than ${this.#allowed / 1000} s`),
      Math.max(0, this.#deadline - Date.now()),
    );
  }

  /** Stops the job's process because its caller no longer wants the answer (a cancelled run). */
  cancel(job: ExtractionJob): void {
    if (this.#job === job) this.#stop('cancelled', 'the extraction was cancelled');
  }

  #release(): void {
    this.#child.unref();
    (this.#child.channel as { unref?: () => void } | undefined)?.unref?.();
    (this.#child.stderr as { unref?: () => void } | null)?.unref?.();
  }

  #finish(reply: ExtractionReply): void {
    const job = this.#job as ExtractionJob;
    clearTimeout(this.#timer);
    clearTimeout(this.#watch);
    this.#job = undefined;
    this.#release();
    // A quiet process goes, so a burst of reads pays its start once and an idle daemon holds none.
    this.#idle = setTimeout(() => this.stop(), IDLE_MS).unref();
    job.resolve(reply);
    this.#events.free();
  }

  /** Kills the process for `reason`; its exit ends the job with that failure. */
  #stop(reason: ExtractionFailureReason, message: string): void {
    this.#stopping ??= { reason, message };
    this.#fail(reason, message);
  }

  /** Ends the current job with a failure and stops the process (its state is not to be trusted). */
  #fail(reason: ExtractionFailureReason, message: string): void {
    const job = this.#job;
    this.#job = undefined;
    this.stop();
    const cause = this.#stopping ?? { reason, message };
    job?.resolve({ id: job.request.id, ok: false, ...cause });
  }

  /** Stops the process now (a job it was doing fails). */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#idle);
    clearTimeout(this.#timer);
    clearTimeout(this.#watch);
    this.#events.gone(this);
    try {
      if (this.#child.pid !== undefined) process.kill(-this.#child.pid, 'SIGKILL');
    } catch {
      this.#child.kill('SIGKILL');
    }
  }
}
