import { RepaError } from '@repa/protocol';
import { formatName } from './content-kind.js';
import { type ExtractionError, extractDocument } from './document-extractor.js';
import type { DocumentFormat, DocumentText, ExtractionLimits } from './extracted.js';

/**
 * What makes a document's text: this package's extraction and its libraries' versions. A cache
 * keeps it with each text and uses no text made by another (bump it when the text a document gives
 * changes).
 */
export const DOCUMENT_EXTRACTOR = 'repa-documents/2 unpdf-1.8.1 mammoth-1.13.0 turndown-7.2.5';

/**
 * Where {@link readDocument} keeps the texts it extracted, by the version (sha256, lowercase hex)
 * of the bytes they came from. Derived data: a text it cannot vouch for is `undefined`, and a write
 * that fails is dropped; neither rejects.
 */
export interface DocumentTextCache {
  /** The text kept for the bytes with `version`, or `undefined`. */
  read(version: string): Promise<DocumentText | undefined>;
  /** Keeps `document` as the text of the bytes with `version` (best effort). */
  write(version: string, document: DocumentText): Promise<void>;
}

/** How {@link readDocument} reads one document. */
export interface ReadDocumentOptions {
  /** The document's address as errors quote it (default `The document`). */
  shown?: string;
  /**
   * The sha256 (lowercase hex) of the bytes: with it, reads of the same bytes at once share one
   * extraction, and `cache` is used.
   */
  version?: string;
  /** Where texts are kept (used only with `version`). */
  cache?: DocumentTextCache;
  /** The bounds of the extraction (defaults: 120 s, 512 MiB heap, 1536 MiB resident, …). */
  limits?: Partial<ExtractionLimits>;
}

type Extraction = Promise<DocumentText | ExtractionError>;

/** The extractions running now, by cache (or none) and version. */
const running = new WeakMap<object, Map<string, Extraction>>();
const NO_CACHE = {};

/** The error for a document that could not be read (`shown`: its quoted address). */
function unreadable(shown: string, format: DocumentFormat, failure: ExtractionError): RepaError {
  const details = { reason: failure.reason, format };
  if (failure.reason === 'encrypted') {
    return new RepaError(
      'document_encrypted',
      `${shown} is ${formatName(format)} encrypted with a password; Repa cannot read it.`,
      { details },
    );
  }
  const limit = failure.reason !== 'damaged';
  return new RepaError(
    'document_unreadable',
    `${shown} could not be read as ${formatName(format)}: ${failure.message}.`,
    {
      fix: limit
        ? 'The file passes the bounds Repa reads documents within: ask the learner for a smaller part (e.g. the chapter needed), or for its text.'
        : 'The file is damaged or not what its name says: open it in a reader; if it opens, save or print it to a new file and read that.',
      details,
    },
  );
}

/**
 * The marked text of a document of `format` (spec R60): from `cache` when these bytes were read
 * before, else extracted in a separate process (off the caller's event loop and out of its memory,
 * within `limits`, spec R74) and kept in `cache`. `document_encrypted`, or `document_unreadable`
 * with `details.reason`, when it cannot be read; the caller has checked that the bytes are a
 * document of `format` (`contentKindOf`).
 */
export async function readDocument(
  format: DocumentFormat,
  bytes: Uint8Array,
  options: ReadDocumentOptions = {},
): Promise<DocumentText> {
  const { version, cache, limits } = options;
  const extract = async () => {
    const cached = version === undefined ? undefined : await cache?.read(version);
    if (cached !== undefined) return cached;
    const extracted = await extractDocument(format, bytes, limits);
    if (!('reason' in extracted) && version !== undefined) await cache?.write(version, extracted);
    return extracted;
  };
  let pending: Extraction;
  if (version === undefined) {
    pending = extract();
  } else {
    const owner = cache ?? NO_CACHE;
    const byVersion = running.get(owner) ?? new Map<string, Extraction>();
    running.set(owner, byVersion);
    pending = byVersion.get(version) ?? extract();
    if (!byVersion.has(version)) {
      byVersion.set(version, pending);
      void pending.finally(() => byVersion.delete(version)).catch(() => undefined);
    }
  }
  const outcome = await pending;
  if ('reason' in outcome) throw unreadable(options.shown ?? 'The document', format, outcome);
  return outcome;
}
