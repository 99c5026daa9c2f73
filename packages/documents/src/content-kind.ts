import { extname } from 'node:path';
import { RepaError } from '@repa/protocol';
import type { DocumentFormat } from './extracted.js';

/** What a file's bytes are for the model: text, a document read as text, or neither. */
export type ContentKind =
  | { kind: 'text' }
  | { kind: 'document'; format: Exclude<DocumentFormat, 'image'> }
  | { kind: 'unsupported'; type: string };

// As git and ripgrep: a NUL in the first 8 KiB marks a binary file.
const BINARY_PROBE = 8192;

const ascii = (bytes: Uint8Array, offset: number, text: string) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString(
    'latin1',
    offset,
    offset + text.length,
  ) === text;

/** Names of the binary formats a learner is likely to meet, by their first bytes. */
const SIGNATURES: readonly [test: (bytes: Uint8Array) => boolean, type: string][] = [
  [(b) => b[0] === 0x89 && ascii(b, 1, 'PNG'), 'a PNG image'],
  [(b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, 'a JPEG image'],
  [(b) => ascii(b, 0, 'GIF8'), 'a GIF image'],
  [(b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP'), 'a WebP image'],
  [(b) => ascii(b, 0, 'II*\0') || ascii(b, 0, 'MM\0*'), 'a TIFF image'],
  [(b) => ascii(b, 4, 'ftypheic') || ascii(b, 4, 'ftypmif1'), 'a HEIC image'],
  [(b) => ascii(b, 4, 'ftyp'), 'an MP4 video or audio file'],
  [
    (b) => ascii(b, 0, 'ID3') || (b[0] === 0xff && [0xfb, 0xf3, 0xf2].includes(b[1] ?? 0)),
    'an MP3 audio file',
  ],
  [(b) => ascii(b, 0, 'OggS') || ascii(b, 0, 'fLaC'), 'an audio file (Ogg or FLAC)'],
  [(b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE'), 'a WAV audio file'],
  [(b) => ascii(b, 0, 'AT&TFORM'), 'a DjVu document'],
  [(b) => ascii(b, 60, 'BOOKMOBI'), 'a Kindle (MOBI/AZW) e-book'],
  [(b) => ascii(b, 0, '\xd0\xcf\x11\xe0'), 'a legacy Office file (DOC, XLS or PPT)'],
  [(b) => ascii(b, 0, 'SQLite format 3\0'), 'an SQLite database'],
  [(b) => b[0] === 0x1f && b[1] === 0x8b, 'a gzip archive'],
  [(b) => ascii(b, 0, '7z\xbc\xaf'), 'a 7-Zip archive'],
  [(b) => ascii(b, 0, 'Rar!'), 'a RAR archive'],
  [(b) => ascii(b, 0, '\x7fELF') || ascii(b, 0, 'MZ'), 'a program'],
  [(b) => ascii(b, 0, '\xff\xfe') || ascii(b, 0, '\xfe\xff'), 'UTF-16 text (save it as UTF-8)'],
];

/**
 * Whether bytes start like no text file does (a control character or a byte that cannot begin
 * UTF-8 text other than a byte-order mark): only then does a signature of plain letters count,
 * so a note that happens to begin with "MZ" or "ID3" stays a note.
 */
function binaryStart(bytes: Uint8Array): boolean {
  const first = bytes[0];
  if (first === undefined) return false;
  if (first === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return false;
  return first >= 0x80 || (first < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d].includes(first));
}

/** What a ZIP archive holds, by the entry names every such file has, then by its name. */
function zipKind(bytes: Uint8Array, name: string): ContentKind {
  const extension = extname(name).toLowerCase();
  // An EPUB's first entry is its uncompressed `mimetype` (the EPUB container rules).
  if (ascii(bytes, 30, 'mimetypeapplication/epub+zip') || extension === '.epub') {
    return { kind: 'document', format: 'epub' };
  }
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (extension === '.docx' || head.includes('word/document.xml', 0, 'latin1')) {
    return { kind: 'document', format: 'docx' };
  }
  const office: Record<string, string> = {
    '.xlsx': 'an Excel workbook (XLSX)',
    '.pptx': 'a PowerPoint presentation (PPTX)',
    '.odt': 'an OpenDocument text (ODT)',
    '.ods': 'an OpenDocument spreadsheet (ODS)',
    '.odp': 'an OpenDocument presentation (ODP)',
  };
  return { kind: 'unsupported', type: office[extension] ?? 'a ZIP archive' };
}

const HTML_EXTENSIONS = new Set(['.html', '.htm', '.xhtml']);

/**
 * What a file is for reading, from its bytes and its name (spec R60): a PDF (its header within the
 * first 1 KiB), a Word document or EPUB (a ZIP archive holding one), an HTML page (by its
 * extension, when its bytes are text) as documents; other text as text; anything else binary (a
 * NUL in the first 8 KiB, or a known binary signature) as unsupported, named when known.
 */
export function contentKindOf(bytes: Uint8Array, name: string): ContentKind {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024));
  if (head.includes('%PDF-', 0, 'latin1')) return { kind: 'document', format: 'pdf' };
  if (ascii(bytes, 0, 'PK\x03\x04')) return zipKind(bytes, name);
  const nul = bytes.subarray(0, BINARY_PROBE).includes(0);
  if (nul || binaryStart(bytes)) {
    const signature = SIGNATURES.find(([test]) => test(bytes));
    if (signature !== undefined) return { kind: 'unsupported', type: signature[1] };
  }
  if (nul) return { kind: 'unsupported', type: 'binary data' };
  if (HTML_EXTENSIONS.has(extname(name).toLowerCase())) return { kind: 'document', format: 'html' };
  return { kind: 'text' };
}

/** Extensions that name a document format whose bytes are never text (a new file so named is refused). */
const BINARY_DOCUMENTS = new Set(['.pdf', '.docx', '.epub']);

/** The extensions (lower case, with their dot) of the document files `grep` extracts. */
export const DOCUMENT_EXTENSIONS: readonly string[] = [...BINARY_DOCUMENTS, ...HTML_EXTENSIONS];

/** Whether `name` is a document file name (by its extension) that `grep` extracts. */
export function isDocumentName(name: string): boolean {
  return DOCUMENT_EXTENSIONS.includes(extname(name).toLowerCase());
}

const FORMAT_NAMES: Record<DocumentFormat, string> = {
  pdf: 'a PDF',
  docx: 'a Word document (DOCX)',
  epub: 'an EPUB e-book',
  html: 'a saved web page (HTML)',
  image: 'an image (PNG or JPEG)',
};

/** The format's name for messages, e.g. "a PDF". */
export function formatName(format: DocumentFormat): string {
  return FORMAT_NAMES[format];
}

/** `unsupported_content` for a file of `type` at `shown` (a quoted address). */
export function unsupportedContent(shown: string, type: string): RepaError {
  const image = type.endsWith(' image');
  return new RepaError(
    'unsupported_content',
    `${shown} is ${type}, which Repa cannot read as text; its bytes are not shown.`,
    {
      fix: image
        ? 'Read it with the read tool (PNG, JPEG, GIF and WebP are shown as images) or attach it as an image; other image types need converting to PNG or JPEG first.'
        : 'Ask the learner for the text in a format Repa reads: a PDF, a Word document (DOCX), an EPUB, a web page (HTML), Markdown or plain text.',
      details: { type },
    },
  );
}

/**
 * Throws `unsupported_content` unless `bytes` (read at `name`; `shown` quotes its address) are
 * text or a document Repa reads as text (spec R60); cheap: only the first bytes are looked at.
 */
export function refuseUnsupportedContent(bytes: Uint8Array, name: string, shown: string): void {
  const kind = contentKindOf(bytes, name);
  if (kind.kind === 'unsupported') throw unsupportedContent(shown, kind.type);
}

/**
 * Refuses a save of a document (spec R60): `document_read_only` when `current` (the bytes now at
 * `target`, or null for a new file) is a document, or a new file's name says it would be a PDF,
 * Word document or EPUB (text written there would not be one).
 */
export function refuseDocumentSave(target: string, current: Uint8Array | null): void {
  let format: DocumentFormat | undefined;
  if (current === null) {
    const extension = extname(target).toLowerCase();
    if (!BINARY_DOCUMENTS.has(extension)) return;
    format = extension.slice(1) as DocumentFormat;
  } else {
    const kind = contentKindOf(current, target);
    if (kind.kind !== 'document') return;
    format = kind.format;
  }
  throw documentReadOnly(target, format);
}

/** `document_read_only` for the document at `target` (spec R60: documents are read-only sources). */
export function documentReadOnly(target: string, format: DocumentFormat): RepaError {
  return new RepaError(
    'document_read_only',
    `${JSON.stringify(target)} is ${formatName(format)}: Repa reads it as text but never writes it.`,
    { details: { path: target, format } },
  );
}
