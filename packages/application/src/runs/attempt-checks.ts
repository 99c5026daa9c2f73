import { isTerminalRunStatus, RepaError, type RunInfo } from '@repa/protocol';
import { loadHost } from '../load-host.js';
import type { RunLedger } from './run-ledger.js';

/** Refuses to retry `original` unless it is a run (not a delivered message) that has ended. */
export function checkRetryable(original: RunInfo): void {
  const { runId } = original;
  if (original.targetRunId) {
    throw new RepaError(
      'invalid_request',
      `Run ${runId} is a ${original.delivery} message, not a run.`,
      { fix: 'Retry the run it was delivered into, or submit the text again.' },
    );
  }
  if (!isTerminalRunStatus(original.status)) {
    throw new RepaError('busy', `Run ${runId} is still ${original.status}.`, {
      fix: 'Wait for it to end, or cancel it, before retrying.',
    });
  }
}

/** Refuses to resume `original` unless it is a run (not a delivered message) interrupted or failed. */
export function checkResumeStatus(original: RunInfo): void {
  if (original.targetRunId || (original.status !== 'interrupted' && original.status !== 'failed')) {
    throw new RepaError(
      'invalid_request',
      `Run ${original.runId} is ${original.targetRunId ? `a ${original.delivery} message` : original.status}; only an interrupted or failed run can be resumed.`,
      { fix: 'Retry it (repa runs retry) or submit a new request instead.' },
    );
  }
}

/**
 * Refuses to resume `original` when a later run of its session entered the history after it
 * (`not_last_run`, spec R73): a resumption continues the run it names or sends that run's own
 * request, never another run's. Read from the session file, so it holds before the run starts;
 * the host checks it again when the resumption really starts.
 */
export async function checkResumable(ledger: RunLedger, original: RunInfo): Promise<void> {
  if (!ledger.historyMarked(original.runId)) return; // An older run: continued as before.
  const { notLastRun, sessionRunMarks } = await loadHost();
  const entered = (await sessionRunMarks(original.space, original.sessionId))
    .filter((run) => run.entered)
    .map((run) => run.runId);
  const later = entered.includes(original.runId)
    ? entered.slice(entered.indexOf(original.runId) + 1)
    : ledger.runIdsAfter(original).filter((runId) => entered.includes(runId));
  const last = later.at(-1);
  if (last === undefined) return;
  throw notLastRun(original.runId, last);
}
