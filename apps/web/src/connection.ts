import { createRepaClient, type RepaClient, webSocketTransport } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';

/** The page's version, set by build.mjs from package.json. */
declare const __REPA_WEB_VERSION__: string;

/** The state of the connection to the daemon. */
export type ConnectionState = 'connecting' | 'open' | 'reconnecting';

const STATE_TEXT: Record<ConnectionState, string> = {
  connecting: 'Connecting to the daemon…',
  open: 'Connected',
  reconnecting:
    'The daemon is not answering; reconnecting… If it crashed, start it again (repa daemon start): this page reconnects by itself. If it was stopped (repa daemon stop), run repa web for a new address.',
};

/**
 * The protocol's client over the daemon's WebSocket bridge (`/rpc`). It keeps the connection up by
 * itself (a restarted daemon is found again) and re-subscribes to the runs the page follows.
 */
export function connectToDaemon(): RepaClient {
  const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/rpc`;
  return createRepaClient(webSocketTransport(url), {
    client: { name: 'repa-web', version: __REPA_WEB_VERSION__ },
    reconnect: 'always',
    reconnectDelayMs: 250,
    reconnectMaxDelayMs: 2_000,
  });
}

/** Connects `client` at once and follows the connection's state. */
export function useConnectionState(client: RepaClient): ConnectionState {
  const [state, setState] = useState<ConnectionState>('connecting');
  useEffect(() => {
    const offConnect = client.on('connect', () => setState('open'));
    const offDisconnect = client.on('disconnect', () => setState('reconnecting'));
    void client.connect().catch(() => undefined); // Connects at once.
    return () => {
      offConnect();
      offDisconnect();
    };
  }, []);
  return state;
}

/** The page's top bar: the button of the sessions drawer (narrow screens) and the connection. */
export function TopBar({
  drawer,
  onDrawer,
  connection,
}: {
  drawer: boolean;
  onDrawer: (open: boolean) => void;
  connection: ConnectionState;
}) {
  return html`<header class="top">
      <button type="button" class="drawer-toggle" aria-expanded=${drawer ? 'true' : 'false'} aria-controls="sidebar" onClick=${() => {
        onDrawer(!drawer);
        // The drawer takes the focus when it opens (Escape closes it and gives the focus back).
        if (!drawer) setTimeout(() => document.getElementById('space-path')?.focus());
      }}>Spaces and sessions</button>
      <h1>Repa</h1>
      <p class=${`connection connection-${connection}`} role="status">${STATE_TEXT[connection]}</p>
    </header>`;
}
