import { html } from 'htm/preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { placeFromAddress } from './address.js';
import { connectToDaemon, TopBar, useConnectionState } from './connection.js';
import { ConversationView } from './conversation-view.js';
import { useSessionHistory } from './history-view.js';
import { useLiveRuns } from './live-runs.js';
import { useMaterials } from './materials-panel.js';
import { useNextModel } from './next-model.js';
import { describeError } from './panels.js';
import { SessionsNav } from './sessions-nav.js';
import { SidePanels } from './side-panels.js';
import { useSpaceSessions } from './space-sessions.js';
import { useStickToBottom } from './stick-to-bottom.js';
import { usePageViews, ViewSwitch } from './view-switch.js';

/**
 * The whole page: the top bar, the spaces and sessions (sessions-nav.ts), the conversation
 * (conversation-view.ts) and the views beside it (side-panels.ts), over one client. What they
 * share lives here: the open place, the runs followed, the saved history, the documents picked.
 */
export function App() {
  const client = useMemo(connectToDaemon, []);
  const [notice, setNotice] = useState('');
  // The sessions drawer (narrow screens).
  const [drawer, setDrawer] = useState(false);
  // Documents picked in the documents panel: attached to the next request.
  const [picked, setPicked] = useState<string[]>([]);
  const places = useSpaceSessions(client, {
    // Another session (or none): the runs shown go, its history is read.
    onSelect() {
      setDrawer(false);
      live.clear();
      saved.reload();
    },
    onOpen: () => setPicked([]),
    onTrustChanged: () => live.bump(),
    onNotice: setNotice,
  });
  const { space, sessionId } = places;
  const live = useLiveRuns(client, { space: space?.root, sessionId }, (error) =>
    setNotice(describeError(error)),
  );
  const { runs, version } = live;
  const saved = useSessionHistory(client, space?.root, sessionId, (error) =>
    setNotice(describeError(error)),
  );
  // Another session's history, or a request sent from here: the conversation goes to its end.
  const toEnd = useMemo(() => ({}), [saved.opened, live.sent]);
  const thread = useStickToBottom<HTMLElement>(toEnd, runs);
  // The conversation first: the panels (and their requests) come once its first part is read.
  const panels = useRef(false);
  if (space && saved.read) panels.current = true;
  // The next request's model, as set (the composer's picker, the context and models views).
  const next = useNextModel(client, space?.root ?? '', sessionId, `${space?.root}:${version}`);
  // Asked once the panels show: the documents tree and the materials panel share it.
  const materials = useMaterials(client, panels.current ? space?.root : undefined, version);
  const connection = useConnectionState(client);
  const views = usePageViews();

  useEffect(() => {
    const initial = placeFromAddress();
    if (initial.space) void places.open(initial.space, initial.session);
  }, []);

  // A run that ended may have named its session (its first request titles it).
  useEffect(() => {
    if (space) void places.load(space.root).catch(() => undefined);
  }, [version]);

  return html`<div class="shell">
    <${TopBar} drawer=${drawer} onDrawer=${setDrawer} connection=${connection} />
    ${space ? html`<${ViewSwitch} views=${views} />` : ''}
    <div class="layout" data-view=${views.over ? views.side : 'conversation'}>
      <${SessionsNav} client=${client} places=${places} drawer=${drawer} onDrawer=${setDrawer} />
      <${ConversationView} client=${client} places=${places} live=${live} saved=${saved} thread=${thread} next=${next} picked=${picked} onPick=${setPicked} notice=${notice} onNotice=${setNotice} />
      ${
        space && panels.current
          ? html`<${SidePanels} client=${client} space=${space.root} sessionId=${sessionId} live=${live} next=${next} picked=${picked} onPick=${setPicked} materials=${materials} selected=${views.side} onSelect=${views.show} onReaderClose=${views.readerClosed} />`
          : ''
      }
    </div>
  </div>`;
}
