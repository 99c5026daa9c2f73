import type { RepaClient, RestrictedItem, TrustReason, V1Result } from '@repa/protocol';
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

/**
 * What trusting a space turns on (spec R13): what would run as code on the learner's machine
 * first, under its own marked heading, then the rest, an instruction file with its first lines.
 */
export function RestrictedList({ items }: { items: readonly RestrictedItem[] }) {
  const code = items.filter((item) => item.runsCode === true);
  const other = items.filter((item) => item.runsCode !== true);
  const row = (item: RestrictedItem) =>
    html`<li><code>${item.path}</code>${item.name ? html` (<code>${item.name}</code>)` : ''}: ${item.detail}${
      item.lines && item.lines.length > 0
        ? html`<pre class="instruction-lines">${item.lines.join('\n')}</pre>`
        : ''
    }</li>`;
  return html`${
    code.length > 0
      ? html`<p class="runs-code"><strong>⚠ Runs as code on your machine with your rights:</strong></p>
          <ul class="restricted-items runs-code">${code.map(row)}</ul>`
      : ''
  }${
    other.length > 0
      ? html`${code.length > 0 ? html`<p>Also takes effect:</p>` : ''}<ul class="restricted-items">${other.map(row)}</ul>`
      : ''
  }`;
}

/**
 * Whether the open space is trusted (and why, when Repa made it a space itself), with what
 * trusting it turns on (its restricted items) and a button to trust it or to withdraw the trust
 * (spec R13).
 */
export function SpaceTrust({
  client,
  space,
  trusted,
  reason,
  restricted,
  onChange,
}: {
  client: RepaClient;
  space: string;
  trusted: boolean;
  reason: TrustReason | undefined;
  restricted: RestrictedItem[];
  onChange: (trusted: boolean, restricted: RestrictedItem[]) => void;
}) {
  const [message, setMessage] = useState('');
  const [listed, setListed] = useState<RestrictedItem[]>([]);
  const change = async (wanted: boolean) => {
    if (
      !wanted &&
      !window.confirm(
        'Stop trusting this space? Its own settings, skills and instructions stop taking effect from the next run.',
      )
    ) {
      return;
    }
    try {
      const result = await client.request('space.trust', { space, trusted: wanted });
      setListed(wanted ? [] : (result.restricted ?? []));
      setMessage(
        wanted
          ? 'Trusted: what it holds takes effect from the next run.'
          : 'No longer trusted: from the next run on, what it holds has no effect.',
      );
      onChange(result.trusted, wanted ? [] : (result.restricted ?? []));
    } catch (error) {
      setMessage(error instanceof Error ? error.message : String(error));
    }
  };
  const items = trusted ? [] : restricted.length > 0 ? restricted : listed;
  return html`<div class="space-trust" data-trusted=${trusted ? 'true' : 'false'}>
    <p class="meta">
      ${
        trusted
          ? `Trusted${reason === 'created' ? ' (Repa made this folder a space itself: it held nothing that trusting turns on)' : ''}: its own settings, skills and instruction files take effect.`
          : 'Restricted: its own settings, skills, instruction files and Pi packages have no effect and none of its code runs.'
      }
    </p>
    <${RestrictedList} items=${items} />
    <button type="button" class=${trusted ? 'untrust' : 'trust'} onClick=${() => void change(!trusted)}>
      ${trusted ? 'Stop trusting this space' : 'Trust this space'}
    </button>
    <p class="meta" role="status">${message}</p>
  </div>`;
}
