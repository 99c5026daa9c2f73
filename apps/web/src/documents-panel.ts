import type { MaterialInfo, RepaClient, V1Result } from '@repa/protocol';
import { html } from 'htm/preact';
import { useEffect, useState } from 'preact/hooks';
import { takePlaceAtLoad } from './address.js';
import { FileLink, type ReaderPlace, useReaderRequests } from './file-links.js';
import { lazyView } from './lazy-view.js';
import { buildContext, describeError } from './panels.js';

/** The reader (PDF pages included) loads when a file is first opened, not with the page. */
const Reader = lazyView(() => import('./reader.js').then((reader) => reader.Reader));

type Listing = V1Result<'files.list'>;

interface DocumentsPanelProps {
  client: RepaClient;
  space: string;
  /** Grows whenever the files may have changed (a run ended). */
  version: number;
  /** The documents picked: attached to the next request, or the sources of a context build. */
  picked: readonly string[];
  onPick: (picked: string[]) => void;
  /** Called when the learner closes the reader. */
  onReaderClose: () => void;
  /** Called after a learning context was built from the picked documents. */
  onBuilt: () => void;
  /** The space's granted materials (listed beside its files when readable). */
  materials: readonly MaterialInfo[] | undefined;
}

/** What the space's rules left out of a folder, in words (empty when nothing). */
function leftOut(listing: Listing): string {
  const parts = [
    listing.more > 0 ? `${listing.more} more not shown` : '',
    listing.ignored > 0 ? `${listing.ignored} ignored (.gitignore, .git, node_modules)` : '',
    listing.symlinksLeaving > 0
      ? `${listing.symlinksLeaving} link${listing.symlinksLeaving === 1 ? '' : 's'} to outside the space not shown`
      : '',
  ];
  return parts.filter((part) => part !== '').join(' · ');
}

/**
 * The learner's documents (keyed by the space: another space starts afresh): the space's files as a tree (listed folder by folder through
 * `files.list`, with the space's rules), the granted materials, and the reader. A file's box picks
 * it: picked documents go with the next request, or become the sources of a context build.
 */
export function DocumentsPanel({
  client,
  space,
  version,
  picked,
  onPick,
  onBuilt,
  materials: granted,
  onReaderClose,
}: DocumentsPanelProps) {
  const [listings, setListings] = useState<Record<string, Listing>>({});
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set(['']));
  const materials = (granted ?? []).filter((material) => material.state === 'ok');
  const [place, setPlace] = useState<ReaderPlace | undefined>(takePlaceAtLoad);
  // What the last build said (kept until the next one), and why listing a folder failed (cleared
  // when the folders are listed again): apart, so a listing after a build keeps the build's words.
  const [message, setMessage] = useState('');
  const [listingError, setListingError] = useState('');
  const [building, setBuilding] = useState(false);
  useReaderRequests(setPlace);

  const load = async (folder: string) => {
    try {
      const listing = await client.request('files.list', {
        space,
        ...(folder === '' ? {} : { path: folder }),
      });
      setListings((known) => ({ ...known, [folder]: listing }));
    } catch (error) {
      setListingError(describeError(error));
    }
  };

  // The open folders are listed again when a run may have changed them.
  useEffect(() => {
    setListingError('');
    for (const folder of open) void load(folder);
  }, [space, version]);

  const toggle = (folder: string) => {
    const next = new Set(open);
    if (next.has(folder)) next.delete(folder);
    else {
      next.add(folder);
      void load(folder);
    }
    setOpen(next);
  };
  const pick = (path: string, on: boolean) =>
    onPick(
      on
        ? [...picked.filter((item) => item !== path), path]
        : picked.filter((item) => item !== path),
    );

  const build = async () => {
    setBuilding(true);
    try {
      const result = await buildContext(
        client,
        { space, sources: picked.filter((path) => !path.startsWith('repa:')) },
        setMessage,
      );
      setMessage(
        `Learning context built from ${picked.length} document${picked.length === 1 ? '' : 's'} (${result.model}).`,
      );
      onBuilt();
    } catch (error) {
      setMessage(describeError(error));
    } finally {
      setBuilding(false);
    }
  };

  // Plain functions, not components: the tree keeps its elements (and focus) across renders.
  const entryView = ({
    path,
    name,
    folder,
    size,
    problem,
  }: {
    path: string;
    name: string;
    folder: boolean;
    size?: number | undefined;
    problem?: string | undefined;
  }): unknown => {
    // A name no path can give (shown escaped): said, with why, never offered to open or pick.
    if (problem !== undefined) {
      return html`<li class="tree-unnamed" key=${path} data-path=${path}>
        <code>${name}${folder ? '/' : ''}</code>
        <span class="meta"> cannot be opened: ${problem}</span>
      </li>`;
    }
    if (folder) {
      const expanded = open.has(path);
      return html`<li class="tree-folder" key=${path} data-path=${path}>
        <button type="button" class="link tree-toggle" aria-expanded=${expanded} onClick=${() => toggle(path)}>
          <span aria-hidden="true">${expanded ? '▾' : '▸'}</span> ${name}/
        </button>
        ${expanded ? folderView(path) : ''}
      </li>`;
    }
    const checked = picked.includes(path);
    return html`<li class="tree-file" key=${path}>
      <label class="pick-label"><input type="checkbox" class="pick" data-path=${path} checked=${checked} onChange=${(
        event: Event,
      ) =>
        pick(
          path,
          (event.target as HTMLInputElement).checked,
        )} /><span class="visually-hidden">Pick ${path}</span></label>
      <${FileLink} place=${{ path }}>${name}<//>
      ${size === undefined ? '' : html`<span class="meta"> ${size < 1000 ? `${size} B` : `${Math.round(size / 1000)} KB`}</span>`}
    </li>`;
  };

  const folderView = (folder: string): unknown => {
    const listing = listings[folder];
    if (!listing) return html`<p class="meta">Listing…</p>`;
    const note = leftOut(listing);
    return html`<ul class="tree" role=${folder === '' ? undefined : 'group'}>
      ${listing.entries.length === 0 ? html`<li class="meta">(empty folder)</li>` : ''}
      ${[...listing.entries.filter((entry) => entry.folder), ...listing.entries.filter((entry) => !entry.folder)].map((entry) => entryView(entry))}
      ${note ? html`<li class="meta tree-note">${note}</li>` : ''}
    </ul>`;
  };

  const sources = picked.filter((path) => !path.startsWith('repa:'));
  return html`<section class="panel documents" aria-labelledby="documents-heading">
    <h2 id="documents-heading">Documents</h2>
    ${
      place
        ? html`<${Reader} client=${client} space=${space} place=${place} version=${version} onOpen=${setPlace} onClose=${() => {
            setPlace(undefined);
            onReaderClose();
          }} />`
        : ''
    }
    <div class="document-tree">
      ${folderView('')}
      ${
        materials.length > 0
          ? html`<h3>Granted materials</h3>
              <ul class="tree">
                ${materials.map((material) => entryView({ path: material.identity, name: material.title ?? material.id, folder: false, size: material.bytes }))}
              </ul>`
          : ''
      }
    </div>
    ${
      picked.length > 0
        ? html`<div class="picked" role="status">
            <p>${picked.length} picked: attached to your next message.</p>
            <button type="button" disabled=${building || sources.length === 0} onClick=${build}>Build the learning context from ${sources.length === 1 ? 'it' : 'them'}</button>
            <button type="button" class="link" onClick=${() => onPick([])}>Clear</button>
          </div>`
        : html`<p class="meta">Pick documents to attach them to your next message or build the learning context from them.</p>`
    }
    <p class="meta" role="status">${listingError || message}</p>
  </section>`;
}

/** The documents going with the next request, each with a way to take it off. */
export function AttachedDocuments({
  picked,
  onPick,
}: {
  picked: readonly string[];
  onPick: (picked: string[]) => void;
}) {
  if (picked.length === 0) return '';
  return html`<div class="attached-row"><span class="meta" aria-hidden="true">Attached:</span><ul class="attached" aria-label="Attached documents">
    ${picked.map(
      (path) => html`<li>
        <${FileLink} place=${{ path }} />
        <button type="button" class="link" aria-label=${`Remove ${path}`} onClick=${() => onPick(picked.filter((item) => item !== path))}>×</button>
      </li>`,
    )}
  </ul></div>`;
}
