import { RepaError } from '@repa/protocol';
import { countLines, textHead, versionOfYielding } from '../files/index.js';
import type { ContentSnapshot } from '../space/index.js';
import type { ContentStore } from '../store/index.js';
import { contentKindOf, formatName, unsupportedContent } from './content-kind.js';
import { readCachedText, writeCachedText } from './document-cache.js';
import { type ExtractionError, extractDocument } from './document-extractor.js';
import type { DocumentFormat, DocumentText, ExtractionLimits } from './extracted.js';

/** The extractions running now, by space and version: a second read of the same bytes waits for the first. */
const running = new Map<string, Promise<DocumentText | ExtractionError>>();

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
 * The marked text of a document (spec R60): from the application directory's cache when these
 * bytes were read before (never from anything a space holds), else extracted in a worker (off the
 * event loop, within `limits`) and cached. `document_encrypted` or `document_unreadable` (with `details.reason`) when it cannot be
 * read; the caller has checked that the bytes are a document of `format`.
 */
export async function documentText(
  store: ContentStore,
  source: { bytes: Uint8Array; version: string; format: DocumentFormat },
  shown: string,
  limits?: Partial<ExtractionLimits>,
): Promise<DocumentText> {
  const key = `${store.root}\0${source.version}`;
  let pending = running.get(key);
  if (pending === undefined) {
    pending = (async () => {
      const cached = await readCachedText(store.space, source.version);
      if (cached !== undefined) return cached;
      const extracted = await extractDocument(source.format, source.bytes, limits);
      if ('reason' in extracted) return extracted;
      await writeCachedText(store.space, source.version, extracted);
      return extracted;
    })();
    running.set(key, pending);
    void pending.finally(() => running.delete(key)).catch(() => undefined);
  }
  const outcome = await pending;
  if ('reason' in outcome) throw unreadable(shown, source.format, outcome);
  return outcome;
}

/** What a file's bytes give the model: text, or a document's marked text, bounded. */
export interface ContentText {
  /** The text (UTF-8 decoded, or the document's marked text): at most the `maxChars` asked for. */
  text: string;
  /** True when the whole text is longer than `text`. */
  truncated: boolean;
  /** How many lines the whole text has (`split('\n').length`; 0 for none), counted unsplit. */
  lines: number;
  /** The document, when the bytes are one. */
  document?: DocumentText;
}

/**
 * The text of `bytes` read at `name` (a path or identity; `shown` quotes it in errors): UTF-8 text
 * as it is, a document's marked text (see {@link documentText}); `unsupported_content` for other
 * binary files. Only the first `maxChars` characters are given (spec R74: a huge text file is never
 * decoded whole, and its lines are counted letting the event loop run). `version` is the bytes'
 * sha256 when the caller has it; `shown` the quoted address errors name (default: `name` quoted).
 */
export async function contentText(
  store: ContentStore,
  bytes: Uint8Array,
  name: string,
  options: {
    maxChars: number;
    version?: string;
    shown?: string;
    limits?: Partial<ExtractionLimits>;
  },
): Promise<ContentText> {
  const { maxChars } = options;
  const shown = options.shown ?? JSON.stringify(name);
  const kind = contentKindOf(bytes, name);
  if (kind.kind === 'unsupported') throw unsupportedContent(shown, kind.type);
  if (kind.kind === 'text') return { ...textHead(bytes, maxChars), lines: await countLines(bytes) };
  const version = options.version ?? (await versionOfYielding(bytes));
  const document = await documentText(
    store,
    { bytes, version, format: kind.format },
    shown,
    options.limits,
  );
  return {
    text: document.text.slice(0, maxChars),
    truncated: document.text.length > maxChars,
    lines: await countLines(document.text),
    document,
  };
}

/**
 * Reads `address` (a path of the space or a `repa:` identity) and gives its text as the model
 * reads it (spec R60), at most `maxChars` characters of it: text files as they are, PDFs, Word
 * documents, EPUBs and web pages as their marked text, other binary files refused
 * (`unsupported_content`). Nothing is recorded as observed: the caller decides
 * (`ContentObserver.recordRead`; outside materials never are).
 */
export async function readContentText(
  store: ContentStore,
  address: string,
  { maxChars }: { maxChars: number },
): Promise<ContentText & { snapshot: ContentSnapshot }> {
  const snapshot = await store.read(address);
  const text = await contentText(store, snapshot.bytes, snapshot.target, {
    maxChars,
    version: snapshot.version,
    shown: JSON.stringify(snapshot.outside ? snapshot.identity : snapshot.target),
  });
  return { ...text, snapshot };
}
