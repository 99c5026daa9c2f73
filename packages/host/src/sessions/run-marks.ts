import type { SessionEntry, SessionManager } from '@earendil-works/pi-coding-agent';
import { RepaError } from '@repa/protocol';

/**
 * The custom entry a run writes where it begins, before its context snapshot, notices and message:
 * `{ runId }`. A `custom` entry never reaches the model; it ties the history to the ledger's runs
 * (resume, spec R73) and is where a rewind of the conversation branches from.
 */
export const RUN_MARK = 'repa.run';

/** The custom message a resumption continues with (it reaches the model as a user message). */
export const RESUME_MESSAGE = 'repa.resume';

/** The text of {@link RESUME_MESSAGE}. */
export const RESUME_NOTE = 'Continue from where the interrupted reply stopped.';

/** A run as the session's history knows it. */
export interface RunInHistory {
  /** The run's id. */
  runId: string;
  /** Whether its message (a request, or a resumption's note) entered the history. */
  entered: boolean;
}

/** Writes the mark of `runId` at the session's leaf (where the run begins). */
export function markRun(sessionManager: SessionManager, runId: string): void {
  sessionManager.appendCustomEntry(RUN_MARK, { runId });
}

/**
 * The runs marked on a branch, oldest first: a run's message entered the history when a user
 * message (or a resumption's note) follows its mark before the next mark.
 */
export function runsInHistory(branch: readonly SessionEntry[]): RunInHistory[] {
  const runs: RunInHistory[] = [];
  for (const entry of branch) {
    if (entry.type === 'custom' && entry.customType === RUN_MARK) {
      const runId = (entry.data as { runId?: unknown } | undefined)?.runId;
      if (typeof runId === 'string') runs.push({ runId, entered: false });
      continue;
    }
    const last = runs.at(-1);
    if (!last || last.entered) continue;
    if (
      (entry.type === 'message' && entry.message.role === 'user') ||
      (entry.type === 'custom_message' && entry.customType === RESUME_MESSAGE)
    ) {
      last.entered = true;
    }
  }
  return runs;
}

/**
 * How a run is resumed (spec R73): `continue` from where the history ends when its message
 * entered the history, `resend` its own request when it never did. `not_last_run` when a later
 * run's message entered the history after it. `marked`: the run ran on a host that marks its
 * message; an older run is continued as before.
 */
export function resumeModeOf(
  branch: readonly SessionEntry[],
  runId: string,
  marked: boolean,
): 'continue' | 'resend' {
  if (!marked) return 'continue';
  const entered = runsInHistory(branch)
    .filter((run) => run.entered)
    .map((run) => run.runId);
  const index = entered.indexOf(runId);
  if (index === -1) return 'resend';
  const later = entered.at(-1);
  if (later !== undefined && later !== runId) throw notLastRun(runId, later);
  return 'continue';
}

/** `not_last_run`: `later` entered the session's history after `runId`. */
export function notLastRun(runId: string, later: string): RepaError {
  return new RepaError(
    'not_last_run',
    `Run ${runId} is not the last run of its session: run ${later} came after it.`,
    {
      fix: `Resume run ${later} instead, or retry run ${runId} as a new run (repa runs retry ${runId}).`,
      details: { runId, laterRunId: later },
    },
  );
}
