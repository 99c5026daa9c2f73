import type { Citation } from '@repa/protocol';
import { RepaError } from '@repa/protocol';
import type { ContentStore } from '../store/index.js';
import { type CitationReading, type CitedDocument, checkCitations } from './check-citations.js';
import { parseCitations } from './parse-citations.js';

/** Codes saying an address names nothing of the space (as opposed to a failing disk). */
const NOT_A_DOCUMENT = new Set([
  'not_found',
  'invalid_request',
  'path_outside_space',
  'protected_path',
  'material_not_granted',
]);

async function locateCited(store: ContentStore, document: string): Promise<CitedDocument | null> {
  try {
    const location = await store.locate(document);
    // A path that is no file is no document: `locate` resolves addresses, it does not stat them.
    if (!location.outside && (await store.space.statKeyOf(location.target)) === null) return null;
    return { target: location.target, identity: location.identity ?? location.target };
  } catch (error) {
    if (RepaError.isInstance(error) && NOT_A_DOCUMENT.has(error.code)) return null;
    throw error;
  }
}

/**
 * The citations of a final answer, each checked against `readings` (what the conversation's
 * `read` results showed, {@link citationReadings}). Only documents no reading names are looked
 * up in `store` (to tell `unknown_document` from `not_read`); nothing is read or hashed.
 */
export async function checkAnswerCitations(
  store: ContentStore,
  answer: string,
  readings: readonly CitationReading[],
): Promise<Citation[]> {
  const parsed = parseCitations(answer);
  if (parsed.length === 0) return [];
  const named = new Set<string>();
  for (const reading of readings) named.add(reading.target).add(reading.identity);
  const documents = new Map<string, CitedDocument | null>();
  for (const { document } of parsed) {
    if (named.has(document) || documents.has(document)) continue;
    documents.set(document, await locateCited(store, document));
  }
  return checkCitations(parsed, readings, documents);
}

/**
 * `citations` as shown now: each one checked against a version is marked `changedSince` when its
 * document no longer has that version (edited, moved away or deleted). One read per document;
 * `current` (document → its version now, `null` when unreadable) shares the reads between calls.
 */
export async function markChangedSince(
  store: ContentStore,
  citations: readonly Citation[],
  current = new Map<string, string | null>(),
): Promise<Citation[]> {
  for (const citation of citations) {
    const { identity, version } = citation;
    if (identity === undefined || version === undefined || current.has(identity)) continue;
    try {
      current.set(identity, (await store.read(identity)).version);
    } catch (error) {
      if (!RepaError.isInstance(error)) throw error;
      current.set(identity, null);
    }
  }
  return citations.map((citation) => {
    const { identity, version } = citation;
    if (identity === undefined || version === undefined) return citation;
    return current.get(identity) === version ? citation : { ...citation, changedSince: true };
  });
}
