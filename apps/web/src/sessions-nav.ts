import type { RepaClient } from '@repa/protocol';
import { html } from 'htm/preact';
import { localTime } from './local-time.js';
import type { SpaceSessions } from './space-sessions.js';
import { KnownSpaces, SpaceTrust } from './spaces.js';

/**
 * The spaces and sessions: a space opened by its path or picked from those known, its trust, and
 * its sessions to open or start. On narrow screens it is a drawer (Escape closes it).
 */
export function SessionsNav({
  client,
  places,
  drawer,
  onDrawer,
}: {
  client: RepaClient;
  places: SpaceSessions;
  drawer: boolean;
  onDrawer: (open: boolean) => void;
}) {
  const { space, known, pathInput } = places;
  return html`<nav id="sidebar" class=${`sidebar${drawer ? ' open' : ''}${space ? '' : ' inline'}`} aria-label="Spaces and sessions" onKeyDown=${(
    event: KeyboardEvent,
  ) => {
    if (event.key !== 'Escape' || !drawer) return;
    onDrawer(false);
    document.querySelector<HTMLElement>('.drawer-toggle')?.focus();
  }}>
        <form class="open-space" onSubmit=${(event: Event) => {
          event.preventDefault();
          if (pathInput.trim()) void places.open(pathInput.trim());
        }}>
          <label for="space-path">Space folder (absolute path)</label>
          <input id="space-path" value=${pathInput} placeholder="/home/you/notes" onInput=${(
            event: Event,
          ) => places.setPathInput((event.target as HTMLInputElement).value)} />
          <button type="submit">Open space</button>
        </form>
        ${
          space && known.length > 0
            ? html`<h2>Your spaces</h2>
                <${KnownSpaces} spaces=${known} current=${space.root} onOpen=${(root: string) => void places.open(root)} />`
            : ''
        }
        ${
          space
            ? html`<${SpaceTrust} client=${client} space=${space.root} trusted=${space.trusted} reason=${space.trustReason} restricted=${space.restricted} onChange=${places.trustChanged} />
                <h2>Sessions of ${space.name}</h2>
                <button type="button" onClick=${places.create}>New session</button>
                <ul class="sessions">
                  ${places.sessions.map(
                    (session) => html`<li><button type="button" class="link session" aria-current=${
                      session.sessionId === places.sessionId ? 'true' : undefined
                    } onClick=${() => void places.select(space.root, session.sessionId)}>
                      <span class="title">${session.title ?? 'Untitled session'}</span>
                      <span class="meta">${localTime(session.updatedAt ?? session.createdAt)}</span>
                    </button></li>`,
                  )}
                </ul>`
            : ''
        }
      </nav>`;
}
