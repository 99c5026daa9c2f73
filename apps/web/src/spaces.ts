import type { RepaClient, V1Result } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';

/** A space the daemon has opened (`space.list`). */
export type KnownSpace = V1Result<'space.list'>['spaces'][number];

/** The spaces the daemon has opened, read again whenever `version` changes (a space opened). */
export function useKnownSpaces(client: RepaClient, version: unknown): KnownSpace[] {
  const [spaces, setSpaces] = useState<KnownSpace[]>([]);
  useEffect(() => {
    let current = true;
    void client
      .request('space.list', {})
      .then(({ spaces: listed }) => {
        if (current) setSpaces(listed);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [version]);
  return spaces;
}

/** The spaces to go back to: each a button, a vanished folder said and not offered. */
export function KnownSpaces({
  spaces,
  current,
  onOpen,
}: {
  spaces: KnownSpace[];
  current?: string | undefined;
  onOpen: (root: string) => void;
}) {
  return html`<ul class="known-spaces">
    ${spaces.map(
      (
        space,
      ) => html`<li data-root=${space.root} data-missing=${space.missing ? 'true' : undefined}>
        ${
          space.missing
            ? html`<span class="space-name">${space.name}</span>
                <span class="meta">Folder gone (moved or deleted): ${space.root}</span>`
            : html`<button type="button" class="link known-space" aria-current=${
                current === space.root ? 'true' : undefined
              } onClick=${() => onOpen(space.root)}>
                <span class="space-name">${space.name}</span>
                <span class="meta">${space.root}</span>
              </button>`
        }
      </li>`,
    )}
  </ul>`;
}

/** The first screen: the spaces to go back to, or how to start when there are none. */
export function Welcome({
  spaces,
  onOpen,
}: {
  spaces: KnownSpace[];
  onOpen: (root: string) => void;
}) {
  return html`<section class="welcome" aria-labelledby="welcome-title">
    <h2 id="welcome-title">${spaces.length > 0 ? 'Your spaces' : 'Open a space'}</h2>
    ${
      spaces.length > 0
        ? html`<p>Pick up where you left off:</p>
            <${KnownSpaces} spaces=${spaces} onOpen=${onOpen} />
            <p class="meta">Or open another folder by its path.</p>`
        : html`<p>
            A space is a folder of your notes and materials. Type its full path under "Space
            folder", or run <code>repa web</code> inside it.
          </p>`
    }
  </section>`;
}
