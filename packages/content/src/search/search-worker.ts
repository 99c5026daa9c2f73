// The search worker's entry: runs search jobs off the daemon's event loop, with synchronous reads
// (no event-loop round trip per file). Started by search-pool.ts; built as dist/search-worker.js.
import { parentPort } from 'node:worker_threads';
import { RepaError } from '@repa/protocol';
import { runSearchJob, type SearchJob } from './search-jobs.js';
import { WalkFailure } from './space-walk.js';

/** A job as the pool posts it: the job, and a flag the pool sets to 1 when the caller gives up. */
interface Posted {
  job: SearchJob;
  abort: Int32Array;
}

parentPort?.on('message', ({ job, abort }: Posted) => {
  try {
    parentPort?.postMessage({ answer: runSearchJob(job, () => Atomics.load(abort, 0) === 1) });
  } catch (error) {
    parentPort?.postMessage({ failure: failureOf(error) });
  }
});

/** A failure as plain data the pool turns back into the error the tool throws. */
function failureOf(error: unknown) {
  if (RepaError.isInstance(error)) return { wire: error.toWire() };
  if (error instanceof WalkFailure) {
    return { walk: { message: error.message, path: error.path, errno: error.errno } };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}
