import { contentKindOf } from '@repa/documents';
import { RepaError } from '@repa/protocol';
import type { ContentStore } from '../store/index.js';

/**
 * The bytes of the PDF at `address` (a path of the space or a `repa:` identity) for the page's
 * reader to render (design R123): read through the store like every read (inside the space or a
 * granted material, regular files only, no link out); `unsupported_content` for any other file.
 */
export async function readPdfBytes(
  store: ContentStore,
  address: string,
): Promise<{ bytes: Buffer; version: string }> {
  const snapshot = await store.read(address);
  const kind = contentKindOf(snapshot.bytes, snapshot.target);
  if (kind.kind !== 'document' || kind.format !== 'pdf') {
    throw new RepaError(
      'unsupported_content',
      `${JSON.stringify(address)} is not a PDF: the reader shows the pages of PDFs only.`,
      { fix: 'Open it in the reader as text (its lines).', details: { type: kind.kind } },
    );
  }
  return { bytes: snapshot.bytes, version: snapshot.version };
}
