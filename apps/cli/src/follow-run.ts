import {
  isTerminalRunStatus,
  type RepaClient,
  RepaError,
  type RunFollower,
  type RunInfo,
} from '@repa/protocol';
import { type Approver, approvalAnswers } from './approvals.js';
import type { RunPrinter } from './run-printer.js';

/** A run being followed. */
export interface FollowedRun {
  /** The run's final record. */
  done: Promise<RunInfo>;
  /** Asks the daemon to cancel the run (`run.cancel`); before acceptance, as soon as it is known. */
  cancel(): void;
  /** True once {@link FollowedRun.cancel} was called. */
  readonly cancelling: boolean;
}

/** The exit code of a finished run: 0 succeeded, 130 cancelled, 1 otherwise. */
export function exitCodeOf(run: RunInfo): number {
  if (run.status === 'succeeded') return 0;
  if (run.status === 'cancelled') return 130;
  return 1;
}

/**
 * Starts a run with `start` (`run.submit`, `run.retry`, `run.resume` or `run.subscribe`) and prints
 * what the protocol's run follower yields until the run ends. Its approval requests (`tools.edits`
 * `ask`) are answered by `approver`; without one, only shown (the run is watched, not sent here).
 * Contract: events are listened to before the request is sent, so none that arrive with or before
 * the answer are lost; a request id that was already accepted prints the original run's output.
 */
export function followRun(
  client: RepaClient,
  printer: RunPrinter,
  start: () => Promise<{ run: RunInfo; resubmitted: boolean }>,
  approver?: Approver,
): FollowedRun {
  let dropped = false;
  const stopDisconnect = client.on('disconnect', () => {
    dropped = true;
  });
  const follower = client.followRun(start);
  let ended = false;
  const approvals = approvalAnswers(client, printer, approver);
  const done = printRun(client, printer, follower, approvals).then(
    (run) => {
      ended = true;
      stopDisconnect();
      return run;
    },
    async (error: unknown) => {
      ended = true;
      stopDisconnect();
      printer.stop();
      if (!(dropped && RepaError.isInstance(error) && error.code === 'daemon_unavailable')) {
        throw error;
      }
      const runId = (await follower.accepted.catch(() => undefined))?.run.runId ?? '';
      throw new RepaError('daemon_unavailable', `Lost the daemon while following run ${runId}.`, {
        fix: `See what became of it with repa runs show ${runId || '<run id>'}.`,
        cause: error,
      });
    },
  );
  return {
    done,
    get cancelling() {
      return follower.cancelling;
    },
    cancel() {
      if (follower.cancelling || ended) return;
      printer.note('[cancel] cancelling the run …');
      follower.cancel();
    },
  };
}

/** Prints the run's acceptance, its events and its final record; resolves with that record. */
async function printRun(
  client: RepaClient,
  printer: RunPrinter,
  follower: RunFollower<{ run: RunInfo; resubmitted: boolean }>,
  approvals: ReturnType<typeof approvalAnswers>,
): Promise<RunInfo> {
  const { run, resubmitted } = await follower.accepted;
  printer.accepted(run, resubmitted);
  // An answer that is already terminal is the final record (a request id seen before).
  let final = isTerminalRunStatus(run.status) ? run : undefined;
  for await (const update of follower) {
    if (update.kind === 'event') {
      const { event } = update.notification;
      printer.event(update.notification);
      if (event.type === 'approval-request') approvals.request(run.runId, event);
      if (event.type === 'approval-answered') approvals.answered(event);
    } else {
      printer.resumed(update.run, update.afterSeq);
      if (isTerminalRunStatus(update.run.status)) final = update.run;
    }
  }
  approvals.end();
  const record = final ?? (await client.request('run.get', { runId: run.runId })).run;
  printer.finished(record, record === run && resubmitted);
  return record;
}
