import type { RepaClient, RunFollower, RunInfo } from '@repa/protocol';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  applyRunEvent,
  isActive,
  isQueued,
  type RunView,
  runViewOf,
  type SteerView,
} from './conversation.js';

/** Where the page is: the open space and session, whose queued runs' places are read again. */
export interface LiveRunsPlace {
  space: string | undefined;
  sessionId: string | undefined;
}

/**
 * The runs and steer requests the page follows in the open session, each through the protocol's
 * run follower: their views, and the actions on them. `version` grows whenever something a panel
 * shows may have changed (a run ended); `onError` shows a failed action.
 */
export function useLiveRuns(
  client: RepaClient,
  place: LiveRunsPlace,
  onError: (error: unknown) => void,
) {
  const [runs, setRuns] = useState<RunView[]>([]);
  const [steers, setSteers] = useState<SteerView[]>([]);
  const [version, setVersion] = useState(0);
  /** Queued runs cancelled before they started: taken off the page, their events ignored. */
  const removed = useRef(new Set<string>());
  const runsRef = useRef(runs);
  runsRef.current = runs;
  const steersRef = useRef(steers);
  steersRef.current = steers;
  const bump = () => setVersion((value) => value + 1);

  const update = (runId: string, change: (view: RunView) => void) => {
    setRuns((current) =>
      current.map((view) => {
        if (view.runId !== runId) return view;
        const copy = { ...view, blocks: view.blocks.map((block) => ({ ...block })) };
        change(copy);
        return copy;
      }),
    );
  };

  /** Applies a status to the page's view of a steer request. */
  const steerStatus = (runId: string, status: string, error?: SteerView['error']) => {
    setSteers((current) =>
      current.map((steer) => (steer.runId === runId ? { ...steer, status, error } : steer)),
    );
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
    setRuns((current) => [...current.filter((item) => item.runId !== runId), view]);
    if (!isActive(view.status)) bump();
    let queued = isQueued(view);
    try {
      for await (const item of follower) {
        if (removed.current.has(runId)) return;
        if (item.kind === 'resumed') {
          // Reconnected: the run as the daemon has it now (e.g. interrupted by a restart).
          update(runId, (known) => {
            known.status = item.run.status;
            known.error = item.run.error;
          });
          queued = queued && item.run.status === 'accepted';
          if (!isActive(item.run.status)) bump();
          continue;
        }
        const { event } = item.notification;
        if (event.type === 'status') {
          if (queued && event.status === 'cancelled') {
            removeQueued(runId);
            return;
          }
          queued = queued && event.status === 'accepted';
        }
        update(runId, (known) => applyRunEvent(known, item.notification));
        if (event.type === 'status' && !isActive(event.status)) bump();
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
    const steer = {
      runId: run.runId,
      targetRunId: run.targetRunId ?? '',
      text,
      status: run.status,
      error: run.error,
    };
    setSteers((current) => [...current.filter((item) => item.runId !== run.runId), steer]);
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

  // A run that ended moves the queue on: the places of the runs still waiting are read again.
  useEffect(() => {
    const { space, sessionId } = place;
    if (space === undefined || sessionId === undefined || !runsRef.current.some(isQueued)) return;
    void client
      .request('run.list', { space, sessionId })
      .then(({ runs: listed }) => {
        const places = new Map(listed.map((run) => [run.runId, run.queuePosition]));
        setRuns((current) =>
          current.map((view) =>
            isQueued(view) && places.has(view.runId)
              ? { ...view, queuePosition: places.get(view.runId) }
              : view,
          ),
        );
      })
      .catch(() => undefined);
  }, [version]);

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

  const retry = async (runId: string) => {
    try {
      const follower = client.followRun(() =>
        client.request('run.retry', { runId, requestId: crypto.randomUUID() }),
      );
      void follow(follower, runViewOf((await follower.accepted).run));
    } catch (error) {
      onError(error);
    }
  };

  return {
    runs,
    steers,
    version,
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
    cancel,
    retry,
  };
}
