import { RepaError } from '@repa/protocol';
import { formatName } from './content-kind.js';
import {
  type ExtractionCall,
  type ExtractionError,
  extractDocument,
  renderPdfPageImage,
} from './document-extractor.js';
import type { DocumentFormat, DocumentText, ExtractionLimits } from './extracted.js';

/**
 * What makes a document's text: this package's extraction and its libraries' versions. A cache
 * keeps it with each text and uses no text made by another (bump it when the text a document gives
 * changes).
 */
const DOCUMENT_EXTRACTOR = 'repa-documents/4 unpdf-1.8.1 mammoth-1.13.0 turndown-7.2.5';

/**
 * Where {@link readDocument} keeps the texts it extracted, by the version (sha256, lowercase hex)
 * of the bytes they came from. Derived data: a text it cannot vouch for is `undefined`, and a write
 * that fails is dropped; neither rejects.
 */
export interface DocumentTextCache {
  /** The text `extractor` made of the bytes with `version`, or `undefined`. */
  read(version: string, extractor: string): Promise<DocumentText | undefined>;
  /** Keeps `document`, made by `extractor`, as the text of the bytes with `version` (best effort). */
  write(version: string, extractor: string, document: DocumentText): Promise<void>;
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
  /**
   * The OCR languages for pages without a text layer (spec R120; default `["eng"]`, `[]` none):
   * a page's text is recognised once and cached with the document's.
   */
  ocrLanguages?: readonly string[];
  /** Told the pages done of the whole while a document is extracted (not when cached). */
  onProgress?: ExtractionCall['onProgress'];
  /** Stops waiting; the extraction stops too when no other read waits for it (`cancelled`). */
  signal?: AbortSignal;
}

type Extraction = Promise<DocumentText | ExtractionError>;
/** One extraction and the reads waiting for it (it stops when all of them stopped waiting). */
interface Running {
  outcome: Extraction;
  waiting: number;
  stop: AbortController;
  progress: Set<NonNullable<ExtractionCall['onProgress']>>;
}

/** The default OCR languages (the `documents.ocrLanguages` setting's default). */
const DEFAULT_OCR_LANGUAGES: readonly string[] = ['eng'];

/** The extractions running now, by cache (or none) and version. */
const running = new WeakMap<object, Map<string, Running>>();
const NO_CACHE = {};

/**
 * The error for a document that could not be read (`shown`: its quoted address), read with OCR
 * off when `ocrOff`.
 */
function unreadable(
  shown: string,
  format: DocumentFormat,
  failure: ExtractionError,
  ocrOff = false,
): RepaError {
  const details = { reason: failure.reason, format };
  if (failure.reason === 'cancelled') {
    return new RepaError('cancelled', `Reading ${shown} was cancelled.`, { details });
  }
  if (failure.reason === 'ocr_unavailable') {
    return new RepaError('ocr_unavailable', `${shown} could not be read: ${failure.message}.`, {
      details,
      ...(ocrOff
        ? {
            fix: 'Name the OCR languages installed in `documents.ocrLanguages` (e.g. `["eng"]`) to read it by OCR, or use a model that accepts images.',
          }
        : {}),
    });
  }
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
  const { version, cache, limits, signal } = options;
  const ocrLanguages = options.ocrLanguages ?? DEFAULT_OCR_LANGUAGES;
  const extractor =
    ocrLanguages.length === 0
      ? DOCUMENT_EXTRACTOR
      : `${DOCUMENT_EXTRACTOR} ocr-${ocrLanguages.join('+')}`;
  const start = (): Running => {
    const stop = new AbortController();
    const progress = new Set<NonNullable<ExtractionCall['onProgress']>>();
    const outcome = (async () => {
      const cached = version === undefined ? undefined : await cache?.read(version, extractor);
      if (cached !== undefined) return cached;
      const extracted = await extractDocument(format, bytes, limits, {
        ocrLanguages,
        signal: stop.signal,
        onProgress: (made) => {
          for (const tell of progress) tell(made);
        },
      });
      if ('reason' in extracted) return extracted;
      const unrecognised = extracted.parts.find((part) => part.unrecognised !== undefined);
      // A scan none of whose pages could be recognised is unreadable here, naming what to install.
      if (unrecognised && extracted.parts.every((part) => part.empty)) {
        const reason = 'ocr_unavailable' as const;
        return { reason, message: unrecognised.unrecognised as string };
      }
      // A page not recognised (no engine, or past its time) is tried again at the next read.
      const retry = extracted.parts.some(
        (part) => part.unrecognised !== undefined || part.failed?.startsWith('time_limit'),
      );
      if (!retry && version !== undefined) await cache?.write(version, extractor, extracted);
      return extracted;
    })();
    return { outcome, waiting: 0, stop, progress };
  };
  let entry: Running;
  if (version === undefined) {
    entry = start();
  } else {
    const owner = cache ?? NO_CACHE;
    const byVersion = running.get(owner) ?? new Map<string, Running>();
    running.set(owner, byVersion);
    const key = `${version} ${extractor}`;
    const found = byVersion.get(key);
    entry = found ?? start();
    if (found === undefined) {
      byVersion.set(key, entry);
      void entry.outcome.finally(() => byVersion.delete(key)).catch(() => undefined);
    }
  }
  const outcome = await waitFor(entry, options.onProgress, signal);
  if ('reason' in outcome) {
    throw unreadable(options.shown ?? 'The document', format, outcome, ocrLanguages.length === 0);
  }
  return outcome;
}

/**
 * The outcome of `entry` for one read: `cancelled` as soon as `signal` aborts, and the extraction
 * stopped when no other read waits for it.
 */
async function waitFor(
  entry: Running,
  onProgress: ExtractionCall['onProgress'],
  signal: AbortSignal | undefined,
): Promise<DocumentText | ExtractionError> {
  const cancelled: ExtractionError = { reason: 'cancelled', message: 'cancelled' };
  if (signal?.aborted) return cancelled;
  entry.waiting += 1;
  if (onProgress) entry.progress.add(onProgress);
  let abort = () => {};
  const aborted = new Promise<ExtractionError>((resolve) => {
    abort = () => {
      entry.waiting -= 1;
      if (entry.waiting === 0) entry.stop.abort();
      resolve(cancelled);
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
  try {
    return await Promise.race([entry.outcome, aborted]);
  } finally {
    signal?.removeEventListener('abort', abort);
    if (onProgress) entry.progress.delete(onProgress);
    if (!signal?.aborted) entry.waiting -= 1;
  }
}

/**
 * Page `page` (1-based) of a PDF drawn as a PNG in an extraction process (spec R121: a page shown
 * to a model that sees), within `limits`. `document_unreadable` when it cannot be drawn.
 */
export async function renderPdfPage(
  bytes: Uint8Array,
  page: number,
  options: { shown?: string; limits?: Partial<ExtractionLimits>; signal?: AbortSignal } = {},
): Promise<Uint8Array> {
  const image = await renderPdfPageImage(bytes, page, options.limits, options.signal);
  if ('reason' in image) throw unreadable(options.shown ?? 'The document', 'pdf', image);
  return image;
}
