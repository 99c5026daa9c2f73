import {
  isTerminalRunStatus,
  type RepaClient,
  RepaError,
  type RunEventNotification,
  type RunInfo,
} from '@repa/protocol';
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
 * Starts a run with `start` (`run.submit` or `run.retry`, which subscribe this connection) and
 * prints its events as they arrive until it ends.
 * Contract: events are listened to before the request is sent, so none that arrive with or before
 * the answer are lost; a request id that was already accepted prints the original run's output.
 */
export function followRun(
  client: RepaClient,
  printer: RunPrinter,
  start: () => Promise<{ run: RunInfo; resubmitted: boolean }>,
): FollowedRun {
  let runId: string | undefined;
  let cancelRequested = false;
  const early: RunEventNotification[] = [];
  let settle!: { resolve: (run: RunInfo) => void; reject: (error: unknown) => void };
  const done = new Promise<RunInfo>((resolve, reject) => {
    settle = { resolve, reject };
  });
  let ended = false;
  const finish = (run: RunInfo, replayOutput: boolean) => {
    if (ended) return;
    ended = true;
    stopEvents();
    stopDisconnect();
    printer.finished(run, replayOutput);
    settle.resolve(run);
  };
  const fail = (error: unknown) => {
    if (ended) return;
    ended = true;
    printer.stop();
    stopEvents();
    stopDisconnect();
    settle.reject(error);
  };
  const sendCancel = (id: string) => {
    client.request('run.cancel', { runId: id }).catch((error: unknown) => {
      // The run may have ended meanwhile; its final status still arrives as an event.
      if (!(RepaError.isInstance(error) && error.code === 'not_found')) fail(error);
    });
  };
  const handle = (notification: RunEventNotification) => {
    printer.event(notification);
    const { event } = notification;
    if (event.type === 'status' && isTerminalRunStatus(event.status)) {
      client.request('run.get', { runId: notification.runId }).then(
        ({ run }) => finish(run, false),
        (error: unknown) => fail(error),
      );
    }
  };
  const stopEvents = client.on('run.event', (notification) => {
    if (runId === undefined) early.push(notification);
    else if (notification.runId === runId) handle(notification);
  });
  const stopDisconnect = client.on('disconnect', (error) => {
    fail(
      new RepaError('daemon_unavailable', `Lost the daemon while following run ${runId ?? ''}.`, {
        fix: `See what became of it with repa runs show ${runId ?? '<run id>'}.`,
        cause: error,
      }),
    );
  });
  start().then(
    ({ run, resubmitted }) => {
      runId = run.runId;
      printer.accepted(run, resubmitted);
      for (const notification of early.splice(0)) {
        if (notification.runId === runId) handle(notification);
      }
      if (isTerminalRunStatus(run.status)) finish(run, resubmitted);
      else if (cancelRequested) sendCancel(run.runId);
    },
    (error: unknown) => fail(error),
  );
  return {
    done,
    get cancelling() {
      return cancelRequested;
    },
    cancel() {
      if (cancelRequested || ended) return;
      cancelRequested = true;
      printer.note('[cancel] cancelling the run …');
      if (runId !== undefined) sendCancel(runId);
    },
  };
}
