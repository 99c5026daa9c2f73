import { ContentStore, type FolderListing, listSpaceFolder, readContentText } from '@repa/content';
import type { V1Result } from '@repa/protocol';

/** The most characters of text {@link readSpaceFile} gives (a reader's page, not a frame's worth). */
export const READER_MAX_CHARS = 1_000_000;

/** A file's text for the reader, as {@link readSpaceFile} gives it (the `files.read` result). */
export type ReaderText = V1Result<'files.read'>;

/**
 * One folder of `space` with the space's rules (the `ls` tool's: `.repa` hidden, symlinks out
 * not followed, ignored paths skipped). Reading names only: it changes nothing in the space.
 */
export async function listSpaceFiles(
  space: string,
  appDirectory: string,
  path: string | undefined,
  limit?: number,
): Promise<FolderListing> {
  const store = await ContentStore.open({ root: space, appDirectory });
  return listSpaceFolder(store, path, limit === undefined ? {} : { limit });
}

/**
 * The text of `address` (a space path or `repa:` identity) as the `read` tool reads it (spec
 * R60): text as it is, documents as their marked text; within the store's bounded reads, and only
 * the first {@link READER_MAX_CHARS} characters decoded (R74).
 */
export async function readSpaceFile(
  space: string,
  appDirectory: string,
  address: string,
): Promise<ReaderText> {
  const store = await ContentStore.open({ root: space, appDirectory });
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
