import type { RunInfo } from '@repa/protocol';
import { loadHost } from '../load-host.js';
import type { RunLedger } from './run-ledger.js';

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
