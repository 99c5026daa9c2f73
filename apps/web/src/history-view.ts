import type { HistoryItem, RepaClient, RewindResult, RunInfo } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { RunItem } from './conversation.js';
import { historyTurns } from './history-turns.js';
import type { Rewind } from './rewind-view.js';
import { distanceToEnd, scrollsItself, scrollToDistance } from './stick-to-bottom.js';

/** How many history items one read asks for: a long session comes in parts, the latest first. */
const HISTORY_PART = 60;
/**
 * The first part is smaller: what fills the screen at the end of the conversation, read, parsed
 * and shown sooner (a session opens at its end); reaching its top reads the next part.
 */
const FIRST_PART = 24;
/**
 * How many run records come with each part: the newest first, as many as the part can hold turns
 * of (every run has at least one item), so a long session's records come in parts too.
 */
const RUNS_PER_PART = HISTORY_PART;
/** The most runs one `run.list` returns. */
const MAX_RUNS = 1000;

/** A session's saved history as far as it is read, with the run records its turns are shown with. */
export interface SessionHistory {
  /** The items read, oldest first (the latest part first, earlier parts as the learner scrolls up). */
  items: HistoryItem[];
  /** The session's runs (`run.list`): status, error, model and thinking level of each turn. */
  runs: RunInfo[];
  /** True while items precede those read. */
  earlier: boolean;
  /** Changes when the history is read anew (another session, a rewind), not when a part is added. */
  opened: object;
  /** False while the open session's first part is on its way. */
  read: boolean;
  /** Reads the part before the items read. */
  loadEarlier(): Promise<void>;
  /** Reads the history anew from its end. */
  reload(): void;
}

/**
 * The open session's saved history, read in parts from its end (`session.history` with `limit`
 * and `before`), with its runs; `onError` shows a failed read.
 */
export function useSessionHistory(
  client: RepaClient,
  space: string | undefined,
  sessionId: string | undefined,
  onError: (error: unknown) => void,
): SessionHistory {
  const [state, setState] = useState({
    items: [] as HistoryItem[],
    runs: [] as RunInfo[],
    earlier: false,
    opened: {},
    /** The space and session whose first part came (or failed). */
    readOf: undefined as string | undefined,
  });
  const place = `${space}\n${sessionId}`;
  const [reads, setReads] = useState(0);
  const loading = useRef(false);
  useEffect(() => {
    setState({ items: [], runs: [], earlier: false, opened: {}, readOf: undefined });
    if (space === undefined || sessionId === undefined) return;
    let current = true;
    void Promise.all([
      client.request('session.history', { space, sessionId, limit: FIRST_PART }),
      client
        .request('run.list', { space, sessionId, limit: FIRST_PART, brief: true })
        .catch(() => ({ runs: [] })),
    ])
      .then(([history, listed]) => {
        if (!current) return;
        setState({
          items: history.items,
          runs: listed.runs,
          earlier: history.earlier === true,
          opened: {},
          readOf: place,
        });
      })
      .catch((error: unknown) => {
        if (!current) return;
        setState((now) => ({ ...now, readOf: place }));
        onError(error);
      });
    return () => {
      current = false;
    };
  }, [space, sessionId, reads]);

  const loadEarlier = async () => {
    const first = state.items[0];
    if (!state.earlier || loading.current || !first || !space || !sessionId) return;
    loading.current = true;
    try {
      const [part, listed] = await Promise.all([
        client.request('session.history', {
          space,
          sessionId,
          limit: HISTORY_PART,
          before: first.entryId,
        }),
        // The records of the earlier turns too: the runs listed so far and a part's worth more.
        client
          .request('run.list', {
            space,
            sessionId,
            limit: Math.min(MAX_RUNS, state.runs.length + RUNS_PER_PART),
            brief: true,
          })
          .catch(() => undefined),
      ]);
      setState((now) =>
        now.items[0] === first
          ? {
              ...now,
              items: [...part.items, ...now.items],
              runs: listed && listed.runs.length > now.runs.length ? listed.runs : now.runs,
              earlier: part.earlier === true,
            }
          : now,
      );
    } catch (error) {
      onError(error);
    } finally {
      loading.current = false;
    }
  };
  const read = space === undefined || sessionId === undefined || state.readOf === place;
  return { ...state, read, loadEarlier, reload: () => setReads((count) => count + 1) };
}

/**
 * The saved conversation, turn by turn exactly as the live view shows a run (RunItem), without the
 * runs the page follows live. Reaching its top reads the part before (the scroll stays where it was).
 */
export function HistoryList({
  history,
  live,
  onRetry,
  onResume,
  onRewind,
  onRewound,
}: {
  history: SessionHistory;
  /** The runs shown in the live view (left out here). */
  live: readonly string[];
  onRetry: (runId: string) => void;
  onResume: (runId: string) => void;
  onRewind: Rewind;
  onRewound: (result: RewindResult) => void;
}) {
  const liveKey = live.join(' ');
  const turns = useMemo(
    () => historyTurns(history.items, history.runs).filter((turn) => !live.includes(turn.runId)),
    [history.items, history.runs, liveKey],
  );
  // The same elements while the turns are the same: a streaming live reply does not render the
  // saved conversation again.
  const rendered = useMemo(
    () =>
      turns.map(
        (view) =>
          html`<${RunItem} key=${view.runId} view=${view} steers=${[]} onCancel=${() => {}} onRetry=${onRetry} onResume=${onResume} onQueueSteer=${() => {}} onRewind=${onRewind} onRewound=${onRewound} />`,
      ),
    [turns],
  );
  const top = useRef<HTMLLIElement>(null);
  // Reaching the top reads the part before; the learner's place is kept by its distance to the end.
  useEffect(() => {
    const sentinel = top.current;
    const thread = sentinel?.closest<HTMLElement>('.thread');
    if (!sentinel || !thread || !history.earlier) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        const fromEnd = distanceToEnd(thread);
        void history
          .loadEarlier()
          .then(() => requestAnimationFrame(() => scrollToDistance(thread, fromEnd)));
      },
      // The thread scrolls on wide screens, the page on narrow ones.
      { root: scrollsItself(thread) ? thread : null },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [history.earlier, history.items]);
  return html`<ol class="history">
    ${
      history.earlier
        ? html`<li class="history-earlier" ref=${top}>
            <button type="button" class="link" onClick=${() => void history.loadEarlier()}>Show earlier messages</button>
          </li>`
        : ''
    }
    ${rendered}
  </ol>`;
}
