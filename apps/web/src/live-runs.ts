import type { RepaClient, RunFollower, RunInfo } from '@repa/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import { historyTurns } from './history-turns.js';
import { isActive } from './run-status.js';
import {
  applyRunUpdate,
  changeRun,
  isQueued,
  putLast,
  type RunView,
  runViewOf,
  type SteerView,
  statusOfUpdate,
  steerViewOf,
  withQueuePosition,
  withSteerStatus,
} from './run-views.js';

/** Where the page is: the open space and session, whose queued runs' places are read again. */
export interface LiveRunsPlace {
  space: string | undefined;
  sessionId: string | undefined;
}

/**
 * The runs and steer requests the page follows in the open session, each through the protocol's
 * run follower: its own, and those other clients (the CLI, another tab) or the queue start, which
 * `session.subscribe` announces (again after a reconnection). Their views, and the actions on
 * them. `version` grows whenever something a panel shows may have changed (a run ended);
 * `onError` shows a failed action.
 */
export function useLiveRuns(
  client: RepaClient,
  place: LiveRunsPlace,
  onError: (error: unknown) => void,
) {
  const [runs, setRuns] = useState<RunView[]>([]);
  const [steers, setSteers] = useState<SteerView[]>([]);
  const [version, setVersion] = useState(0);
  const [sent, setSent] = useState(0);
  /** Queued runs cancelled before they started: taken off the page, their events ignored. */
  const removed = useRef(new Set<string>());
  /** The request ids of the page's own requests: their runs are followed from the answer. */
  const own = useRef(new Set<string>());
  /** The runs followed since the session was opened (a run is followed once). */
  const followed = useRef(new Set<string>());
  const runsRef = useRef(runs);
  runsRef.current = runs;
  const steersRef = useRef(steers);
  steersRef.current = steers;
  const bump = () => setVersion((value) => value + 1);

  const update = (runId: string, change: (view: RunView) => void) => {
    setRuns((current) => changeRun(current, runId, change));
  };

  /** Applies a status to the page's view of a steer request. */
  const steerStatus = (runId: string, status: string, error?: SteerView['error']) => {
    setSteers((current) => withSteerStatus(current, runId, status, error));
  };

  /** Takes a queued run that was cancelled before it started off the page. */
  const removeQueued = (runId: string) => {
    removed.current.add(runId);
    setRuns((current) => current.filter((view) => view.runId !== runId));
    bump();
  };

  /** Shows a run the daemon accepted, then what its follower yields until the run ends. */
  const follow = async (follower: RunFollower<{ run: RunInfo }>, view: RunView) => {
    const { runId } = view;
    followed.current.add(runId);
    setRuns((current) => putLast(current, view));
    if (!isActive(view.status)) bump();
    let queued = isQueued(view);
    try {
      for await (const item of follower) {
        if (removed.current.has(runId)) return;
        // After a reconnection (`resumed`): the run as the daemon has it now (e.g. interrupted by a
        // restart); a queued run cancelled before it started leaves the page.
        const status = statusOfUpdate(item);
        if (queued && status === 'cancelled' && item.kind === 'event') {
          removeQueued(runId);
          return;
        }
        if (status !== undefined) queued = queued && status === 'accepted';
        update(runId, (known) => applyRunUpdate(known, item));
        if (status !== undefined && !isActive(status)) bump();
      }
    } catch {
      // The daemon no longer follows the run (it forgot it): the view keeps what was seen.
    }
  };

  /** Shows a steer request the daemon accepted, then its status until it is delivered or ends. */
  const followSteer = async (
    follower: RunFollower<{ run: RunInfo }>,
    run: RunInfo,
    text: string,
  ) => {
    setSteers((current) => putLast(current, steerViewOf(run, text)));
    try {
      for await (const item of follower) {
        if (item.kind === 'resumed') steerStatus(run.runId, item.run.status, item.run.error);
        else if (item.notification.event.type === 'status') {
          const { status, error } = item.notification.event;
          steerStatus(run.runId, status, error);
        }
      }
    } catch {
      // As for a run: the view keeps what was seen.
    }
  };

  // The session's runs, whoever started them: announced ones are followed; a queue move updates
  // the places of those waiting. Subscribed again after a reconnection (the daemon forgot it).
  useEffect(() => {
    const { space, sessionId } = place;
    if (space === undefined || sessionId === undefined) return;
    let current = true;
    const adopt = (run: RunInfo) => {
      if (!current || run.sessionId !== sessionId) return;
      setRuns((views) => withQueuePosition(views, run));
      // Steers and follow-ups show in the run they reach; the page's own requests are followed.
      if (run.targetRunId || own.current.has(run.requestId)) return;
      if (followed.current.has(run.runId) || removed.current.has(run.runId)) return;
      const follower = client.followRun(() =>
        client.request('run.subscribe', { runId: run.runId }),
      );
      followed.current.add(run.runId);
      void joined(run).then((view) => follow(follower, view));
    };
    /**
     * The view of a run joined while it runs: what it did so far (its saved part of the history)
     * before the events that follow (which the follower keeps meanwhile).
     */
    const joined = async (run: RunInfo): Promise<RunView> => {
      const view = runViewOf(run);
      if (run.status !== 'running') return view;
      try {
        const { items } = await client.request('session.history', { space, sessionId, limit: 200 });
        const [turn] = historyTurns(
          items.filter((item) => item.runId === run.runId),
          [run],
        );
        if (turn) view.blocks = turn.blocks;
      } catch {
        // Without its history the run shows from now on.
      }
      return view;
    };
    const subscribe = () =>
      client
        .request('session.subscribe', { space, sessionId })
        .then(({ runs: active }) => active.forEach(adopt))
        .catch(() => undefined);
    const offRun = client.on('session.run', ({ run }) => adopt(run));
    const offConnect = client.on('connect', () => void subscribe());
    void subscribe();
    return () => {
      current = false;
      offRun();
      offConnect();
      followed.current.clear();
      void client.request('session.unsubscribe', { space, sessionId }).catch(() => undefined);
    };
  }, [place.space, place.sessionId]);

  /** Records a request id as the page's own (its run is followed from the answer); returns it. */
  const mine = (requestId: string): string => {
    own.current.add(requestId);
    setSent((count) => count + 1);
    return requestId;
  };

  const cancel = async (runId: string) => {
    try {
      const { run } = await client.request('run.cancel', { runId });
      if (steersRef.current.some((steer) => steer.runId === runId)) {
        steerStatus(runId, run.status, run.error);
        return;
      }
      const known = runsRef.current.find((view) => view.runId === runId);
      if (known && isQueued(known) && run.status === 'cancelled') {
        removeQueued(runId);
        return;
      }
      update(runId, (view) => {
        if (view.lastSeq === 0 || !isActive(run.status)) view.status = run.status;
      });
    } catch (error) {
      onError(error);
    }
  };

  /** Retries an ended run, or resumes an interrupted or failed one, as a new run followed here. */
  const again = async (method: 'run.retry' | 'run.resume', runId: string) => {
    try {
      const requestId = mine(crypto.randomUUID());
      const follower = client.followRun(() => client.request(method, { runId, requestId }));
      void follow(follower, runViewOf((await follower.accepted).run));
    } catch (error) {
      onError(error);
    }
  };
  const retry = (runId: string) => again('run.retry', runId);
  const resume = (runId: string) => again('run.resume', runId);

  return {
    runs,
    steers,
    version,
    /** Grows with each request the page sends itself (the conversation goes to its end). */
    sent,
    /** Says that something the panels show may have changed. */
    bump,
    /** Forgets the runs and steers shown (another session was chosen). */
    clear() {
      setRuns([]);
      setSteers([]);
    },
    /** Takes a steer request off the page (it was queued as a request of its own instead). */
    dropSteer(runId: string) {
      setSteers((current) => current.filter((item) => item.runId !== runId));
    },
    follow,
    followSteer,
    mine,
    cancel,
    retry,
    resume,
  };
}

/** The runs the page follows and the actions on them. */
export type LiveRuns = ReturnType<typeof useLiveRuns>;
