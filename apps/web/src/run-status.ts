// What the page offers for a run, by its status: the one place that decides it for the
// conversation's turns and for the Runs view.

const ACTIVE = new Set(['accepted', 'running']);
/** Ended without its answer: tried again as a new run (`run.retry`). */
const RETRYABLE = new Set(['failed', 'cancelled', 'interrupted']);
/** Stopped part way: continued from where it stopped (`run.resume`). */
const RESUMABLE = new Set(['failed', 'interrupted']);

/** Whether a run is still accepted or running (it can be cancelled). */
export function isActive(status: string): boolean {
  return ACTIVE.has(status);
}

/** Whether a run ended without its answer, so the page offers Retry. */
export function isRetryable(status: string): boolean {
  return RETRYABLE.has(status);
}

/** Whether a run stopped part way, so the page offers Resume. */
export function isResumable(status: string): boolean {
  return RESUMABLE.has(status);
}
