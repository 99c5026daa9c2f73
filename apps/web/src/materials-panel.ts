import type { MaterialInfo, RepaClient } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { describeError } from './panels.js';

interface MaterialsPanelProps {
  client: RepaClient;
  space: string;
  /** The space's materials as {@link useMaterials} read them. */
  listed: ListedMaterials;
  /** A material was granted or withdrawn: the page reads the list again. */
  onChanged: () => void;
}

/** The materials of a space (`materials.list`); `undefined` until read, the error's words if not. */
export interface ListedMaterials {
  materials: MaterialInfo[] | undefined;
  error: string;
}

/**
 * The materials granted to `space` (`materials.list`), read once for the documents tree and the
 * materials panel, and again whenever `version` changes; nothing is asked without a space. Another
 * space's list is never shown: it is dropped when the space changes or its read fails.
 */
export function useMaterials(
  client: RepaClient,
  space: string | undefined,
  version: unknown,
): ListedMaterials {
  const [listed, setListed] = useState<ListedMaterials & { space?: string | undefined }>({
    materials: undefined,
    error: '',
  });
  useEffect(() => {
    if (space === undefined) return;
    let current = true;
    client.request('materials.list', { space }).then(
      ({ materials }) => {
        if (current) setListed({ space, materials, error: '' });
      },
      (error) => {
        if (current) setListed({ space, materials: undefined, error: describeError(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [space, version]);
  return listed.space === space ? listed : { materials: undefined, error: '' };
}

const TYPE_NAMES: Record<string, string> = {
  pdf: 'PDF',
  docx: 'Word',
  epub: 'EPUB',
  html: 'web page',
  text: 'text',
};

/** A size for people: `812 B`, `14 KB`, `1.2 MB`. */
function size(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function facts(material: MaterialInfo): string {
  if (material.state === 'vanished') return 'its file is gone';
  const type = material.type === undefined ? '' : (TYPE_NAMES[material.type] ?? material.type);
  const now =
    material.state === 'changed' ? ` · now ${material.currentType ?? 'another type'}` : '';
  return [type, size(material.bytes)].filter((part) => part !== '').join(' · ') + now;
}

/**
 * The outside materials this space may read (spec R15, R54): listed with their state, granted by
 * path (to this space or every space) and withdrawn, through `materials.*`.
 */
export function MaterialsPanel({ client, space, listed, onChanged }: MaterialsPanelProps) {
  const { materials } = listed;
  const [path, setPath] = useState('');
  const [id, setId] = useState('');
  const [title, setTitle] = useState('');
  const [everywhere, setEverywhere] = useState(false);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);

  const add = async (event: Event) => {
    event.preventDefault();
    if (path.trim() === '') {
      setMessage('Give the absolute path of the file to grant.');
      return;
    }
    setBusy(true);
    try {
      const { material } = await client.request('materials.add', {
        path: path.trim(),
        ...(id.trim() ? { id: id.trim() } : {}),
        ...(title.trim() ? { title: title.trim() } : {}),
        ...(everywhere ? { allSpaces: true } : { space }),
      });
      setPath('');
      setId('');
      setTitle('');
      setMessage(`Granted ${material.identity}.`);
      onChanged();
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      setBusy(false);
    }
  };
  const remove = async (material: MaterialInfo) => {
    setBusy(true);
    try {
      await client.request('materials.remove', { id: material.id });
      setMessage(`Withdrew ${material.identity}; the file is untouched.`);
      onChanged();
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      setBusy(false);
    }
  };

  return html`<section class="panel" aria-labelledby="materials-heading">
    <h2 id="materials-heading">Materials</h2>
    <p class="meta">Files outside the space (books, papers) this space may read, read-only.</p>
    ${
      materials === undefined
        ? ''
        : materials.length === 0
          ? html`<p class="meta">No materials granted to this space.</p>`
          : html`<ul class="materials">
              ${materials.map(
                (
                  material,
                ) => html`<li class="material" data-id=${material.id} data-state=${material.state}>
                  <code>${material.identity}</code>
                  ${material.title ? html` <span class="material-title">${material.title}</span>` : ''}
                  <span class="meta"> ${facts(material)}${material.spaces === null ? ' · every space' : ''}</span>
                  <button type="button" class="remove" disabled=${busy} aria-label=${`Withdraw ${material.identity}`}
                    onClick=${() => void remove(material)}>Withdraw</button>
                </li>`,
              )}
            </ul>`
    }
    <details>
      <summary>Grant a material</summary>
      <form onSubmit=${add}>
        <label for="material-path">File (absolute path on the daemon's machine)</label>
        <input id="material-path" value=${path} onInput=${(event: Event) =>
          setPath((event.target as HTMLInputElement).value)} />
        <label for="material-id">Id (optional)</label>
        <input id="material-id" value=${id} onInput=${(event: Event) =>
          setId((event.target as HTMLInputElement).value)} />
        <label for="material-title">Title (optional)</label>
        <input id="material-title" value=${title} onInput=${(event: Event) =>
          setTitle((event.target as HTMLInputElement).value)} />
        <label><input type="checkbox" checked=${everywhere} onChange=${(event: Event) =>
          setEverywhere((event.target as HTMLInputElement).checked)} /> Every space</label>
        <button type="submit" disabled=${busy}>Grant</button>
      </form>
    </details>
    <p class="panel-message" role="status">${[listed.error, message].filter((text) => text !== '').join(' ')}</p>
  </section>`;
}
