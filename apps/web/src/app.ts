import type {
  HistoryItem,
  RestrictedItem,
  RunEventNotification,
  RunInfo,
  SessionInfo,
} from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import {
  applyRunEvent,
  HistoryEntry,
  isActive,
  isQueued,
  RunItem,
  type RunView,
  runViewOf,
  type SteerView,
} from './conversation.js';
import { ContextPanel, describeError, RunsPanel, SettingsPanel } from './panels.js';
import { type ConnectionState, RpcClient, RpcError } from './rpc-client.js';

const RECENT_KEY = 'repa.recentSpaces';

function recentSpaces(): string[] {
  try {
    const stored = JSON.parse(localStorage.getItem(RECENT_KEY) ?? '[]') as unknown;
    return Array.isArray(stored) ? stored.filter((item) => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

function remember(root: string): string[] {
  const recent = [root, ...recentSpaces().filter((item) => item !== root)].slice(0, 8);
  localStorage.setItem(RECENT_KEY, JSON.stringify(recent));
  return recent;
}

/** The space named in the address (`#space=/path`), as `repa web --space` opens it. */
function spaceFromAddress(): string | undefined {
  const value = new URLSearchParams(location.hash.slice(1)).get('space');
  return value === null || value === '' ? undefined : value;
}

const STATE_TEXT: Record<ConnectionState, string> = {
  connecting: 'Connecting to the daemon…',
  open: 'Connected',
  reconnecting: 'The daemon is gone; reconnecting…',
};

/** The whole page. */
export function App() {
  const client = useMemo(
    () => new RpcClient(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/rpc`),
    [],
  );
  const [connection, setConnection] = useState<ConnectionState>(client.state);
  const [recent, setRecent] = useState<string[]>(recentSpaces);
  const [pathInput, setPathInput] = useState(spaceFromAddress() ?? '');
  const [space, setSpace] = useState<
    { root: string; name: string; trusted: boolean; restricted: RestrictedItem[] } | undefined
  >();
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [sessionId, setSessionId] = useState<string | undefined>();
  const [history, setHistory] = useState<HistoryItem[]>([]);
  const [runs, setRuns] = useState<RunView[]>([]);
  const [input, setInput] = useState('');
  const [notice, setNotice] = useState('');
  const [version, setVersion] = useState(0);
  const [steers, setSteers] = useState<SteerView[]>([]);
  const buffered = useRef(new Map<string, RunEventNotification[]>());
  /** Queued runs cancelled before they started: taken off the page, their events ignored. */
  const removed = useRef(new Set<string>());
  const runsRef = useRef(runs);
  runsRef.current = runs;
  const steersRef = useRef(steers);
  steersRef.current = steers;

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
    setVersion((value) => value + 1);
  };

  useEffect(() => {
    const offState = client.onState(setConnection);
    const offEvent = client.onRunEvent((event) => {
      if (removed.current.has(event.runId)) return;
      if (steersRef.current.some((steer) => steer.runId === event.runId)) {
        if (event.event.type === 'status') {
          steerStatus(event.runId, event.event.status, event.event.error);
        }
        return;
      }
      const known = runsRef.current.find((view) => view.runId === event.runId);
      if (
        known &&
        isQueued(known) &&
        event.event.type === 'status' &&
        event.event.status === 'cancelled'
      ) {
        removeQueued(event.runId);
        return;
      }
      if (!known) {
        // Events may come before run.submit's answer names the run: kept until it does.
        const list = buffered.current.get(event.runId) ?? [];
        list.push(event);
        buffered.current.set(event.runId, list);
        return;
      }
      update(event.runId, (view) => applyRunEvent(view, event));
      if (event.event.type === 'status' && !isActive(event.event.status)) {
        setVersion((value) => value + 1);
      }
    });
    const offResubscribed = client.onResubscribed((run) => {
      if (steersRef.current.some((steer) => steer.runId === run.runId)) {
        steerStatus(run.runId, run.status, run.error);
        return;
      }
      update(run.runId, (view) => {
        view.status = run.status;
        view.error = run.error;
      });
      if (!isActive(run.status)) setVersion((value) => value + 1);
    });
    void client.request('doctor', {}).catch(() => undefined); // Connects at once.
    const initial = spaceFromAddress();
    if (initial) void openSpace(initial);
    return () => {
      offState();
      offEvent();
      offResubscribed();
    };
  }, []);

  /** Adds a view of a run the daemon accepted, with the events that came before its answer. */
  const follow = (view: RunView) => {
    const early = buffered.current.get(view.runId) ?? [];
    buffered.current.delete(view.runId);
    for (const event of early.sort((a, b) => a.seq - b.seq)) applyRunEvent(view, event);
    setRuns((current) => [...current.filter((item) => item.runId !== view.runId), view]);
    if (!isActive(view.status)) setVersion((value) => value + 1);
  };

  /** Adds a view of a steer request the daemon accepted, with the events that came before. */
  const followSteer = (run: RunInfo, text: string) => {
    let status: string = run.status;
    let error = run.error;
    for (const event of buffered.current.get(run.runId) ?? []) {
      if (event.event.type === 'status') {
        status = event.event.status;
        error = event.event.error ?? error;
      }
    }
    buffered.current.delete(run.runId);
    const steer = { runId: run.runId, targetRunId: run.targetRunId ?? '', text, status, error };
    setSteers((current) => [...current.filter((item) => item.runId !== run.runId), steer]);
  };

  // A run that ended moves the queue on: the places of the runs still waiting are read again.
  useEffect(() => {
    if (!space || sessionId === undefined || !runsRef.current.some(isQueued)) return;
    void client
      .request('run.list', { space: space.root, sessionId })
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

  const loadSessions = async (root: string): Promise<SessionInfo[]> => {
    const { sessions: list } = await client.request('session.list', { space: root });
    setSessions(list);
    return list;
  };

  const selectSession = async (root: string, id: string | undefined) => {
    setSessionId(id);
    setRuns([]);
    setSteers([]);
    setHistory([]);
    if (id === undefined) return;
    try {
      setHistory((await client.request('session.history', { space: root, sessionId: id })).items);
    } catch (error) {
      setNotice(describeError(error));
    }
  };

  async function openSpace(root: string) {
    setNotice('');
    try {
      const { space: opened } = await client.request('space.open', { root });
      setSpace({
        root: opened.root,
        name: opened.name,
        trusted: opened.trusted === true,
        restricted: opened.restricted ?? [],
      });
      setRecent(remember(opened.root));
      setPathInput(opened.root);
      const list = await loadSessions(opened.root);
      const latest = [...list].sort((a, b) =>
        (b.updatedAt ?? b.createdAt).localeCompare(a.updatedAt ?? a.createdAt),
      )[0];
      await selectSession(opened.root, latest?.sessionId);
    } catch (error) {
      setNotice(describeError(error));
    }
  }

  /** Trusts the open space: what it holds (listed in the banner) takes effect from the next run. */
  const trustSpace = async () => {
    if (!space) return;
    try {
      await client.request('space.trust', { space: space.root, trusted: true });
      setSpace({ ...space, trusted: true, restricted: [] });
      await loadSessions(space.root);
      setVersion((value) => value + 1);
    } catch (error) {
      setNotice(describeError(error));
    }
  };

  const newSession = async () => {
    if (!space) return;
    try {
      const { session } = await client.request('session.create', { space: space.root });
      await loadSessions(space.root);
      await selectSession(space.root, session.sessionId);
    } catch (error) {
      setNotice(describeError(error));
    }
  };

  /**
   * Sends the composer's text: `new` when no reply streams; while one does, `queue` (after it) or
   * `steer` (into it, at its next step).
   */
  const submit = async (delivery: 'new' | 'queue' | 'steer', text: string): Promise<boolean> => {
    if (!space || text === '') return false;
    setNotice('');
    try {
      let id = sessionId;
      if (id === undefined) {
        const { session } = await client.request('session.create', { space: space.root });
        id = session.sessionId;
        setSessionId(id);
        void loadSessions(space.root);
      }
      const { run } = await client.request('run.submit', {
        space: space.root,
        sessionId: id,
        requestId: crypto.randomUUID(),
        input: { type: 'text', text },
        ...(delivery === 'new' ? {} : { delivery }),
      });
      if (delivery === 'steer') followSteer(run, text);
      else follow(runViewOf(run));
      if (delivery === 'queue') setVersion((value) => value + 1);
      return true;
    } catch (error) {
      if (error instanceof RpcError && error.code === 'no_active_run') {
        setNotice('The reply ended before you steered it: send your message as a new request.');
      } else {
        setNotice(describeError(error));
      }
      return false;
    }
  };

  const active = runs.some((view) => isActive(view.status));

  const send = async (event: Event, delivery?: 'queue' | 'steer') => {
    event.preventDefault();
    const chosen = delivery ?? (active ? 'queue' : 'new');
    if (await submit(chosen, input.trim())) setInput('');
  };

  /** A steer that arrived after its run ended, queued as a request of its own. */
  const queueInstead = async (steer: SteerView) => {
    if (await submit('queue', steer.text)) {
      setSteers((current) => current.filter((item) => item.runId !== steer.runId));
    }
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
      setNotice(describeError(error));
    }
  };

  const retry = async (runId: string) => {
    try {
      const { run } = await client.request('run.retry', {
        runId,
        requestId: crypto.randomUUID(),
      });
      follow(runViewOf(run));
    } catch (error) {
      setNotice(describeError(error));
    }
  };

  return html`<div class="shell">
    <header class="top">
      <h1>Repa</h1>
      <p class=${`connection connection-${connection}`} role="status">${STATE_TEXT[connection]}</p>
    </header>
    <div class="layout">
      <nav class="sidebar" aria-label="Spaces and sessions">
        <form class="open-space" onSubmit=${(event: Event) => {
          event.preventDefault();
          if (pathInput.trim()) void openSpace(pathInput.trim());
        }}>
          <label for="space-path">Space folder (absolute path)</label>
          <input id="space-path" value=${pathInput} placeholder="/home/you/notes" onInput=${(
            event: Event,
          ) => setPathInput((event.target as HTMLInputElement).value)} />
          <button type="submit">Open space</button>
        </form>
        ${
          recent.length > 0
            ? html`<h2>Recent spaces</h2>
                <ul class="recent">
                  ${recent.map(
                    (root) =>
                      html`<li><button type="button" class="link" aria-current=${
                        space?.root === root ? 'true' : undefined
                      } onClick=${() => void openSpace(root)}>${root}</button></li>`,
                  )}
                </ul>`
            : ''
        }
        ${
          space
            ? html`<h2>Sessions of ${space.name}</h2>
                <button type="button" onClick=${newSession}>New session</button>
                <ul class="sessions">
                  ${sessions.map(
                    (session) => html`<li><button type="button" class="link session" aria-current=${
                      session.sessionId === sessionId ? 'true' : undefined
                    } onClick=${() => void selectSession(space.root, session.sessionId)}>
                      <span class="title">${session.title ?? 'Untitled session'}</span>
                      <span class="meta">${new Date(session.updatedAt ?? session.createdAt).toLocaleString()}</span>
                    </button></li>`,
                  )}
                </ul>`
            : ''
        }
      </nav>
      <main class="conversation" aria-label="Conversation">
        ${
          space
            ? html`<h2 class="visually-hidden">Conversation</h2>
                ${
                  !space.trusted && space.restricted.length > 0
                    ? html`<section class="notice restricted" aria-labelledby="restricted-title">
                        <h3 id="restricted-title">This space is restricted</h3>
                        <p>
                          It holds things that would change what runs or what the model is told.
                          Until you trust it, they have no effect:
                        </p>
                        <ul>
                          ${space.restricted.map(
                            (item) => html`<li><code>${item.path}</code>: ${item.detail}</li>`,
                          )}
                        </ul>
                        <button type="button" onClick=${trustSpace}>Trust this space</button>
                      </section>`
                    : ''
                }
                <ol class="history">
                  ${history.map((item) => html`<${HistoryEntry} key=${item.entryId} item=${item} />`)}
                </ol>
                <ol class="live">
                  ${runs.map(
                    (view) =>
                      html`<${RunItem} key=${view.runId} view=${view} steers=${steers.filter(
                        (steer) => steer.targetRunId === view.runId,
                      )} onCancel=${cancel} onRetry=${retry} onQueueSteer=${queueInstead} />`,
                  )}
                </ol>
                <form class="composer" onSubmit=${send}>
                  <label for="message">Message</label>
                  <textarea id="message" rows="3" value=${input} onInput=${(event: Event) =>
                    setInput((event.target as HTMLTextAreaElement).value)} onKeyDown=${(
                    event: KeyboardEvent,
                  ) => {
                    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void send(event);
                  }}></textarea>
                  ${
                    active
                      ? html`<p class="meta" id="composer-help">
                            A reply is streaming. <strong>Queue</strong> sends your message after
                            it (Ctrl+Enter); <strong>Steer</strong> gives it to the reply at its
                            next step.
                          </p>
                          <div class="row">
                            <button type="submit" class="queue" aria-describedby="composer-help">Queue</button>
                            <button type="button" class="steer" aria-describedby="composer-help" onClick=${(
                              event: Event,
                            ) => void send(event, 'steer')}>Steer</button>
                          </div>`
                      : html`<button type="submit">Send</button>`
                  }
                </form>`
            : html`<p class="empty">Open a space: a folder of your notes.</p>`
        }
        <p class="notice-line" role="alert">${notice}</p>
      </main>
      ${
        space
          ? html`<aside class="panels" aria-label="Learning context, settings and runs">
              <${ContextPanel} client=${client} space=${space.root} sessionId=${sessionId} version=${version} />
              <${RunsPanel} client=${client} space=${space.root} sessionId=${sessionId} version=${version} />
              <${SettingsPanel} client=${client} space=${space.root} sessionId=${sessionId} version=${version} />
            </aside>`
          : ''
      }
    </div>
  </div>`;
}
