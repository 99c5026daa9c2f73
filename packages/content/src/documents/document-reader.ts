import {
  contentKindOf,
  type DocumentFormat,
  type DocumentText,
  type ExtractionLimits,
  type ReadDocumentOptions,
  readDocument,
  unsupportedContent,
} from '@repa/documents';
import { countLines, textHead, versionOfYielding } from '../files/index.js';
import type { ContentSnapshot } from '../space/index.js';
import type { ContentStore } from '../store/index.js';
import { spaceDocumentCache } from './document-cache.js';

/**
 * The marked text of a document (spec R60): from the application directory's cache when these
 * bytes were read before (never from anything a space holds), else extracted in a separate process
 * (off the event loop, within `limits`) and cached; reads of the same bytes at once share one
 * extraction. `document_encrypted` or `document_unreadable` (with `details.reason`) when it cannot
 * be read; the caller has checked that the bytes are a document of `format`.
 */
export function documentText(
  store: ContentStore,
  source: { bytes: Uint8Array; version: string; format: DocumentFormat },
  shown: string,
  options: Pick<ReadDocumentOptions, 'limits' | 'ocrLanguages' | 'onProgress' | 'signal'> = {},
): Promise<DocumentText> {
  return readDocument(source.format, source.bytes, {
    shown,
    version: source.version,
    cache: spaceDocumentCache(store),
    ...options,
  });
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
    options.limits === undefined ? {} : { limits: options.limits },
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
