import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { RepaError, type WireError } from '@repa/protocol';
import type { SearchAnswer, SearchJob } from './search-jobs.js';

/** Searches run at once, each in its own worker; more wait for one to finish. */
const MAX_WORKERS = 4;
/** An idle worker ends after this long (the first search after it pays the start, ~0.1–0.3 s). */
const IDLE_MILLIS = 60_000;

type Reply =
  | { answer: SearchAnswer }
  | {
      failure:
        | { wire: WireError }
        | { walk: { message: string; path: string; errno?: string } }
        | { message: string };
    };

interface Slot {
  worker: Worker;
  busy: boolean;
  idle?: NodeJS.Timeout;
}

const slots: Slot[] = [];
const waiting: ((slot: Slot) => void)[] = [];

// The built worker, found through the package's own exports (from dist/ and from the sources alike).
const workerFile = () => createRequire(import.meta.url).resolve('@repa/content/search-worker');

function spawnSlot(): Slot {
  const slot: Slot = { worker: new Worker(workerFile()), busy: false };
  const drop = () => {
    const index = slots.indexOf(slot);
    if (index >= 0) slots.splice(index, 1);
    clearTimeout(slot.idle);
  };
  slot.worker.once('exit', drop);
  slot.worker.once('error', drop);
  slots.push(slot);
  return slot;
}

function acquire(): Promise<Slot> | Slot {
  const free =
    slots.find((slot) => !slot.busy) ?? (slots.length < MAX_WORKERS ? spawnSlot() : undefined);
  if (free === undefined) return new Promise((resolve) => waiting.push(resolve));
  return claim(free);
}

function claim(slot: Slot): Slot {
  slot.busy = true;
  clearTimeout(slot.idle);
  slot.worker.ref();
  return slot;
}

function release(slot: Slot): void {
  const alive = slots.includes(slot);
  const next = waiting.shift();
  if (next !== undefined) {
    next(claim(alive ? slot : spawnSlot()));
    return;
  }
  if (!alive) return;
  slot.busy = false;
  // An idle worker keeps no process alive, and ends after a while.
  slot.worker.unref();
  slot.idle = setTimeout(() => void slot.worker.terminate(), IDLE_MILLIS).unref();
}

/**
 * Runs one search job in a worker thread, off the event loop: the walk, the reads and the matching
 * never hold the daemon's other sessions. `signal` stops the job at its next entry.
 */
export async function runInWorker(job: SearchJob, signal?: AbortSignal): Promise<SearchAnswer> {
  const slot = await acquire();
  const abort = new Int32Array(new SharedArrayBuffer(4));
  const onAbort = () => Atomics.store(abort, 0, 1);
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  try {
    const reply = await new Promise<Reply>((resolve, reject) => {
      const onExit = (code: number) =>
        reject(new RepaError('internal', `The search worker stopped (exit code ${code}).`));
      slot.worker.once('exit', onExit);
      slot.worker.once('error', reject);
      slot.worker.once('message', (message: Reply) => {
        slot.worker.off('exit', onExit);
        slot.worker.off('error', reject);
        resolve(message);
      });
      slot.worker.postMessage({ job, abort });
    });
    if ('answer' in reply) return reply.answer;
    const { failure } = reply;
    if ('wire' in failure) throw RepaError.fromWire(failure.wire);
    if ('walk' in failure) {
      const { message, path, errno } = failure.walk;
      throw new RepaError('io_error', message, {
        details: { path, ...(errno === undefined ? {} : { errno }) },
      });
    }
    // A cancelled call fails as it always has: the tool turns this into `cancelled`.
    throw new Error(failure.message);
  } finally {
    signal?.removeEventListener('abort', onAbort);
    release(slot);
  }
}
