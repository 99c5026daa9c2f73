import {
  createRepaClient,
  type RepaClient,
  RepaError,
  type RestrictedItem,
  type RewindResult,
  type SessionInfo,
  type V1Params,
  webSocketTransport,
} from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { placeFromAddress, writeAddress } from './address.js';
import { ImageTray, useComposerImages } from './composer-images.js';
import { RunItem } from './conversation.js';
import { AttachedDocuments, DocumentsPanel } from './documents-panel.js';
import { HistoryList, useSessionHistory } from './history-view.js';
import { useLiveRuns } from './live-runs.js';
import { localTime } from './local-time.js';
import { MaterialsPanel, useMaterials } from './materials-panel.js';
import { ModelsView } from './models-view.js';
import { useNextModel } from './next-model.js';
import { ContextPanel, describeError } from './panels.js';
import { overridesOf, RunChoice, type RunChoiceValue } from './run-choice.js';
import { isActive } from './run-status.js';
import { runViewOf, type SteerView } from './run-views.js';
import { RunsView } from './runs-view.js';
import { SessionActions } from './session-actions.js';
import { SettingsView } from './settings-view.js';
import { SideViews } from './side-views.js';
import { KnownSpaces, RestrictedList, SpaceTrust, useKnownSpaces, Welcome } from './spaces.js';
import { useStickToBottom } from './stick-to-bottom.js';

/** The page's version, set by build.mjs from package.json. */
declare const __REPA_WEB_VERSION__: string;

/** The state of the connection to the daemon. */
type ConnectionState = 'connecting' | 'open' | 'reconnecting';

const STATE_TEXT: Record<ConnectionState, string> = {
  connecting: 'Connecting to the daemon…',
  open: 'Connected',
  reconnecting:
    'The daemon is gone; reconnecting… If it was stopped (repa daemon stop), run repa web for a new address.',
};

/**
 * The protocol's client over the daemon's WebSocket bridge (`/rpc`). It keeps the connection up by
 * itself (a restarted daemon is found again) and re-subscribes to the runs the page follows.
 */
function connectToDaemon(): RepaClient {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/rpc`;
  return createRepaClient(webSocketTransport(url), {
    client: { name: 'repa-web', version: __REPA_WEB_VERSION__ },
    reconnect: 'always',
    reconnectDelayMs: 250,
    reconnectMaxDelayMs: 2_000,
  });
}

/** The whole page. */
export function App() {
  const client = useMemo(connectToDaemon, []);
  const [connection, setConnection] = useState<ConnectionState>('connecting');
  const [opened, setOpened] = useState(0);
  const known = useKnownSpaces(client, opened);
  const [pathInput, setPathInput] = useState(placeFromAddress().space ?? '');
  const [space, setSpace] = useState<
    { root: string; name: string; trusted: boolean; restricted: RestrictedItem[] } | undefined
  >();
  const [sessions, setSessions] = useState<SessionInfo[]>([]);
  const [sessionId, setSessionId] = useState<string | undefined>();
  const [input, setInput] = useState('');
  const [notice, setNotice] = useState('');
  // Documents picked in the documents panel: attached to the next request.
  const [picked, setPicked] = useState<string[]>([]);
  const live = useLiveRuns(client, { space: space?.root, sessionId }, (error) =>
    setNotice(describeError(error)),
  );
  const { runs, steers, version } = live;
  const saved = useSessionHistory(client, space?.root, sessionId, (error) =>
    setNotice(describeError(error)),
  );
  const images = useComposerImages(setNotice);
  const conversation = useStickToBottom<HTMLElement>(saved.opened, runs);
  // The conversation first: the panels (and their requests) come once its first part is read.
  const panels = useRef(false);
  if (space && saved.read) panels.current = true;
  // The controls' state: the sessions drawer (narrow screens), the next request's model choice.
  const [drawer, setDrawer] = useState(false);
  const [choice, setChoice] = useState<RunChoiceValue>({});
  const next = useNextModel(client, space?.root ?? '', sessionId, `${space?.root}:${version}`);
  // Asked once the panels show: the documents tree and the materials panel share it.
  const materials = useMaterials(client, panels.current ? space?.root : undefined, version);

  useEffect(() => {
    const offConnect = client.on('connect', () => setConnection('open'));
    const offDisconnect = client.on('disconnect', () => setConnection('reconnecting'));
    void client.connect().catch(() => undefined); // Connects at once.
    const initial = placeFromAddress();
    if (initial.space) void openSpace(initial.space, initial.session);
    return () => {
      offConnect();
      offDisconnect();
    };
  }, []);

  // Undo (rewind-view.ts): the daemon's rewind; afterwards the panels are read again, and the
  // history too when the conversation went back.
  const rewind = async (params: V1Params<'run.rewind'>) =>
    (await client.request('run.rewind', params)).rewind;
  const rewound = (result: RewindResult) => {
    live.bump();
    if (result.conversation && space) void selectSession(space.root, sessionId);
  };

  // Only the latest listing is shown: an older one answered later (a run ended just before a
  // rename) would bring back the old title.
  const listing = useRef(0);
  const loadSessions = async (root: string): Promise<SessionInfo[]> => {
    const ticket = ++listing.current;
    const { sessions: list } = await client.request('session.list', { space: root });
    if (ticket === listing.current) setSessions(list);
    return list;
  };

  // A run that ended may have named its session (its first request titles it).
  useEffect(() => {
    if (space) void loadSessions(space.root).catch(() => undefined);
  }, [version]);

  const selectSession = async (root: string, id: string | undefined) => {
    setDrawer(false);
    setSessionId(id);
    writeAddress({ space: root, session: id });
    live.clear();
    saved.reload();
  };

  /** Opens a space at `session` (when it still has it), else at its latest session. */
  async function openSpace(root: string, session?: string) {
    setNotice('');
    try {
      const { space: opened } = await client.request('space.open', { root });
      setSessionId(undefined); // Not the other space's session, even for a moment.
      setSpace({
        root: opened.root,
        name: opened.name,
        trusted: opened.trusted === true,
        restricted: opened.restricted ?? [],
      });
      setOpened((count) => count + 1);
      setPicked([]);
      setPathInput(opened.root);
      const listed = loadSessions(opened.root);
      // The session the address names is read at once, beside the listing that confirms it.
      if (session !== undefined) await selectSession(opened.root, session);
      const list = await listed;
      if (session !== undefined && list.some((item) => item.sessionId === session)) return;
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
      live.bump();
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
  const submit = async (
    delivery: 'new' | 'queue' | 'steer' | 'followUp',
    text: string,
  ): Promise<boolean> => {
    if (!space || text === '') return false;
    setNotice('');
    try {
      let id = sessionId;
      if (id === undefined) {
        const { session } = await client.request('session.create', { space: space.root });
        id = session.sessionId;
        setSessionId(id);
        writeAddress({ space: space.root, session: id });
        void loadSessions(space.root);
      }
      const follower = client.followRun(() =>
        client.request('run.submit', {
          space: space.root,
          sessionId: id,
          requestId: live.mine(crypto.randomUUID()),
          input: {
            type: 'text',
            text,
            ...(images.images.length ? { images: images.input() } : {}),
            ...(picked.length > 0 && delivery !== 'steer'
              ? { attachments: picked.map((path) => ({ path })) }
              : {}),
          },
          ...(delivery === 'new' ? {} : { delivery }),
          ...(delivery === 'steer' ? {} : overridesOf(choice)),
        }),
      );
      const { run } = await follower.accepted;
      images.clear();
      if (delivery !== 'steer') setPicked([]);
      if (delivery === 'steer' || delivery === 'followUp')
        void live.followSteer(follower, run, text);
      else void live.follow(follower, runViewOf(run));
      if (delivery === 'queue') live.bump();
      if (delivery !== 'steer') setChoice({});
      return true;
    } catch (error) {
      if (RepaError.isInstance(error) && error.code === 'no_active_run') {
        setNotice('The reply ended before you steered it: send your message as a new request.');
      } else {
        setNotice(describeError(error));
      }
      return false;
    }
  };

  const active = runs.some((view) => isActive(view.status));

  const send = async (event: Event, delivery?: 'queue' | 'steer' | 'followUp') => {
    event.preventDefault();
    const chosen = delivery ?? (active ? 'queue' : 'new');
    if (await submit(chosen, input.trim())) setInput('');
  };

  /** A steer that arrived after its run ended, queued as a request of its own. */
  const queueInstead = async (steer: SteerView) => {
    if (await submit('queue', steer.text)) {
      live.dropSteer(steer.runId);
    }
  };

  return html`<div class="shell">
    <header class="top">
      <button type="button" class="drawer-toggle" aria-expanded=${drawer ? 'true' : 'false'} aria-controls="sidebar" onClick=${() => {
        setDrawer(!drawer);
        // The drawer takes the focus when it opens (Escape closes it and gives the focus back).
        if (!drawer) setTimeout(() => document.getElementById('space-path')?.focus());
      }}>Spaces and sessions</button>
      <h1>Repa</h1>
      <p class=${`connection connection-${connection}`} role="status">${STATE_TEXT[connection]}</p>
    </header>
    <div class="layout">
      <nav id="sidebar" class=${`sidebar${drawer ? ' open' : ''}${space ? '' : ' inline'}`} aria-label="Spaces and sessions" onKeyDown=${(
        event: KeyboardEvent,
      ) => {
        if (event.key !== 'Escape' || !drawer) return;
        setDrawer(false);
        document.querySelector<HTMLElement>('.drawer-toggle')?.focus();
      }}>
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
          space && known.length > 0
            ? html`<h2>Your spaces</h2>
                <${KnownSpaces} spaces=${known} current=${space.root} onOpen=${(root: string) => void openSpace(root)} />`
            : ''
        }
        ${
          space
            ? html`<${SpaceTrust} client=${client} space=${space.root} trusted=${space.trusted} restricted=${space.restricted} onChange=${(
                trusted: boolean,
                restricted: RestrictedItem[],
              ) => {
                setSpace({ ...space, trusted, restricted });
                live.bump();
              }} />
                <h2>Sessions of ${space.name}</h2>
                <button type="button" onClick=${newSession}>New session</button>
                <ul class="sessions">
                  ${sessions.map(
                    (session) => html`<li><button type="button" class="link session" aria-current=${
                      session.sessionId === sessionId ? 'true' : undefined
                    } onClick=${() => void selectSession(space.root, session.sessionId)}>
                      <span class="title">${session.title ?? 'Untitled session'}</span>
                      <span class="meta">${localTime(session.updatedAt ?? session.createdAt)}</span>
                    </button></li>`,
                  )}
                </ul>`
            : ''
        }
      </nav>
      <main class="conversation" aria-label="Conversation">
        ${
          space
            ? html`${(() => {
                const open = sessions.find((item) => item.sessionId === sessionId);
                return open
                  ? html`<${SessionActions} client=${client} space=${space.root} session=${open} onChanged=${() => void loadSessions(space.root)} onDeleted=${() => void openSpace(space.root)} />`
                  : html`<h2 class="visually-hidden">Conversation</h2>`;
              })()}
                <div class="thread" ref=${conversation.ref} onScroll=${conversation.onScroll}>
                ${
                  !space.trusted && space.restricted.length > 0
                    ? html`<section class="notice restricted" aria-labelledby="restricted-title">
                        <h3 id="restricted-title">This space is restricted</h3>
                        <p>
                          It holds things that would change what runs or what the model is told.
                          Until you trust it, they have no effect:
                        </p>
                        <${RestrictedList} items=${space.restricted} />
                        <button type="button" onClick=${trustSpace}>Trust this space</button>
                      </section>`
                    : ''
                }
                <${HistoryList} history=${saved} live=${runs.map((view) => view.runId)} onRetry=${live.retry} onResume=${live.resume} onRewind=${rewind} onRewound=${rewound} />
                <ol class="live">
                  ${runs.map(
                    (view) =>
                      html`<${RunItem} key=${view.runId} view=${view} steers=${steers.filter(
                        (steer) => steer.targetRunId === view.runId,
                      )} onCancel=${live.cancel} onRetry=${live.retry} onResume=${live.resume} onQueueSteer=${queueInstead} onRewind=${rewind} onRewound=${rewound} />`,
                  )}
                </ol>
                </div>
                <form class="composer" onSubmit=${send} onDragOver=${images.onDragOver} onDrop=${images.onDrop}>
                  <label for="message">Message <span class="meta">(Enter sends, Shift+Enter adds a line)</span></label>
                  <${AttachedDocuments} picked=${picked} onPick=${setPicked} />
                  <textarea id="message" rows="3" value=${input} onPaste=${images.onPaste} onInput=${(
                    event: Event,
                  ) => setInput((event.target as HTMLTextAreaElement).value)} onKeyDown=${(
                    event: KeyboardEvent,
                  ) => {
                    // Enter sends (queues while a reply streams); Shift+Enter adds a line.
                    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing)
                      void send(event);
                  }}></textarea>
                  <${RunChoice} client=${client} space=${space.root} sessionId=${sessionId} next=${next} value=${choice} onChange=${setChoice} onKept=${live.bump} />
                  <${ImageTray} images=${images.images} onAdd=${images.add} onRemove=${images.remove} />
                  ${
                    active
                      ? html`<p class="meta" id="composer-help">
                            A reply is streaming. <strong>Queue</strong> sends your message after
                            it (Enter); <strong>Steer</strong> gives it to the reply at its
                            next step; <strong>Follow up</strong> gives it to the reply once its
                            current work is done.
                          </p>
                          <div class="row">
                            <button type="submit" class="queue" aria-describedby="composer-help">Queue</button>
                            <button type="button" class="steer" aria-describedby="composer-help" onClick=${(
                              event: Event,
                            ) => void send(event, 'steer')}>Steer</button>
                            <button type="button" class="follow-up" aria-describedby="composer-help" onClick=${(
                              event: Event,
                            ) => void send(event, 'followUp')}>Follow up</button>
                          </div>`
                      : html`<button type="submit">Send</button>`
                  }
                </form>`
            : html`<${Welcome} spaces=${known} onOpen=${(root: string) => void openSpace(root)} />`
        }
        <p class="notice-line" role="alert">${notice}</p>
      </main>
      ${
        space && panels.current
          ? html`<aside class="panels" aria-label="Documents, learning context, materials, runs, settings and models">
              <${SideViews} label="Views beside the conversation" views=${[
                {
                  id: 'study',
                  label: 'Documents',
                  content: html`
                  <${DocumentsPanel} key=${space.root} client=${client} space=${space.root} version=${version} picked=${picked} onPick=${setPicked} onBuilt=${live.bump} materials=${materials.materials} />
                  <${ContextPanel} client=${client} space=${space.root} sessionId=${sessionId} version=${version} next=${next} />
                  <${MaterialsPanel} client=${client} space=${space.root} listed=${materials} onChanged=${live.bump} />`,
                },
                {
                  id: 'runs',
                  label: 'Runs',
                  content: html`<${RunsView} client=${client} space=${space.root} sessionId=${sessionId} version=${version} onCancel=${live.cancel} onRetry=${live.retry} />`,
                },
                {
                  id: 'settings',
                  label: 'Settings',
                  content: html`<${SettingsView} client=${client} space=${space.root} sessionId=${sessionId} version=${version} />`,
                },
                {
                  id: 'models',
                  label: 'Models',
                  content: html`<${ModelsView} client=${client} space=${space.root} sessionId=${sessionId} version=${version} next=${next} onChanged=${live.bump} />`,
                },
              ]} />
            </aside>`
          : ''
      }
    </div>
  </div>`;
}
