import { type ContentStore, listSpaceFolder, readContentText } from '@repa/content';
import type { V1Result } from '@repa/protocol';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import { openSpaceStore } from '../space-store.js';
import type { HandlerParts } from './handler-parts.js';

/** The most characters of text `files.read` gives (a reader's page, not a frame's worth). */
const READER_MAX_CHARS = 1_000_000;

/**
 * `files.*`: a space's files for the page's documents panel and reader, with the content tools'
 * rules (spec R60, R74). Reading a space is allowed before it is trusted (R13): trust decides what
 * its configuration does, not whether the learner may see their notes.
 */
export function filesHandlers({
  appDirectory,
}: Pick<HandlerParts, 'appDirectory'>): NamespaceHandlers<'files'> {
  return {
    'files.list': async (params) => {
      const store = await openSpaceStore(params.space, appDirectory);
      const limit = params.limit === undefined ? {} : { limit: params.limit };
      const listing = await listSpaceFolder(store, params.path, limit);
      return {
        folder: listing.folder,
        entries: listing.entries.map((entry) => ({ ...entry })),
        more: listing.more,
        ignored: listing.report.ignored,
        symlinksLeaving: listing.report.symlinksLeaving,
      };
    },
    'files.read': async (params) =>
      readerText(await openSpaceStore(params.space, appDirectory), params.path),
  };
}

/**
 * The text of `address` (a space path or `repa:` identity) as the `read` tool reads it (spec
 * R60): text as it is, documents as their marked text; within the store's bounded reads, only the
 * first {@link READER_MAX_CHARS} characters decoded (R74), cut at the last line end within them.
 */
async function readerText(store: ContentStore, address: string): Promise<V1Result<'files.read'>> {
  // One character more than is shown tells whether the cut falls on a line's end.
  const { text, truncated, lines, document, snapshot } = await readContentText(store, address, {
    maxChars: READER_MAX_CHARS + 1,
  });
  let shown = text;
  if (text.length > READER_MAX_CHARS) {
    const end = text.lastIndexOf('\n', READER_MAX_CHARS);
    shown = text.slice(0, end > 0 ? end : READER_MAX_CHARS);
  }
  return {
    path: snapshot.outside ? snapshot.identity : snapshot.target,
    identity: snapshot.identity,
    version: snapshot.version,
    bytes: snapshot.bytes.byteLength,
    text: shown,
    lines,
    truncated: truncated || shown.length < text.length,
    ...(document === undefined
      ? {}
      : {
          document: {
            format: document.format,
            ...(document.unit === undefined ? {} : { unit: document.unit }),
            parts: document.parts.map((part) => ({ ...part })),
          },
        }),
  };
}
