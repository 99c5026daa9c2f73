/**
 * The document formats Repa reads as text (spec R60): their text is extracted, never their bytes;
 * an `image` (PNG or JPEG) is read by OCR when asked (spec R120).
 */
export type DocumentFormat = 'pdf' | 'docx' | 'epub' | 'html' | 'image';

/** How a page's text was recognised by OCR (spec R120). */
export type Recognition = {
  /** The engine and the languages it read with, e.g. `tesseract 5.3.0 (eng)`. */
  engine: string;
  /** The engine's mean word confidence on the page, 0 to 100. */
  confidence: number;
};

/** One part of an extracted document: a PDF page, an EPUB chapter, or the whole of another. */
export interface ExtractedPart {
  /** The chapter's title, when the document gives one. */
  title?: string;
  /** The part's text (Markdown for DOCX, HTML and EPUB; the text layer for a PDF page). */
  text: string;
  /** Why the part could not be read (PDF.js's message), when it could not; its text is empty. */
  failed?: string;
  /** When the page had no text layer and its text was recognised by OCR. */
  recognised?: Recognition;
  /** Why a page without a text layer was not recognised (no OCR engine or language here). */
  unrecognised?: string;
  /** When the page has no text layer and nothing drawn on it, so OCR had nothing to read. */
  blank?: true;
}

/** What the extraction worker makes of a document. */
export interface ExtractedDocument {
  format: DocumentFormat;
  /** What a part is: a `page` (PDF), a `chapter` (EPUB), or nothing (one part: DOCX, HTML). */
  unit?: 'page' | 'chapter';
  parts: ExtractedPart[];
}

/** The pages of one slice of a PDF, with the page count of the whole. */
export interface PdfSlice {
  /** The PDF's page count. */
  pages: number;
  /** The 1-based number of the slice's first page. */
  first: number;
  /** The slice's pages, in order. */
  parts: ExtractedPart[];
}

/** A slice of a PDF as its process formats it: its pages' marked text, numbered in the whole. */
export interface FormattedSlice {
  /** The PDF's page count. */
  pages: number;
  /** The 1-based number of the slice's first page. */
  first: number;
  /** The slice's own text (a blank line before it after the first page), parts and hashes. */
  document: DocumentText;
  /** The characters of its pages' text. */
  chars: number;
  /** Why its first unreadable page could not be read, when every one of its pages could not. */
  allFailed?: string;
}

/** Why an extraction failed, as the worker tells it. */
export type ExtractionFailureReason =
  | 'encrypted'
  | 'damaged'
  | 'decompression_bomb'
  | 'page_limit'
  | 'text_limit'
  | 'time_limit'
  | 'memory_limit'
  | 'ocr_unavailable'
  | 'cancelled';

/** The bounds one extraction runs within (spec R74). */
export interface ExtractionLimits {
  /** Wall-clock time of one extraction; past it the worker is stopped (default 120 s). */
  timeoutMs: number;
  /** The extraction process's JavaScript heap (default 512 MiB); past it the process ends. */
  maxHeapMb: number;
  /**
   * The extraction process's resident size, its buffers outside the heap included (default
   * 1536 MiB; watched where `/proc` tells it); past it the process is stopped.
   */
  maxResidentMb: number;
  /** Pages (or chapters) read; a document claiming more is refused (default 10,000). */
  maxPages: number;
  /** Characters of text made in all (default 32 Mi). */
  maxTextChars: number;
  /** Bytes one compressed stream or archive entry may inflate to (default 64 MiB). */
  maxStreamBytes: number;
  /** Bytes all compressed streams or archive entries may inflate to together (default 512 MiB). */
  maxInflatedBytes: number;
  /** Time one page's OCR may take, on top of `timeoutMs` (default 60 s; spec R120). */
  ocrPageTimeoutMs: number;
}

/** A job sent to the extraction worker. */
export interface ExtractionRequest {
  id: number;
  format: DocumentFormat;
  bytes: Uint8Array;
  limits: Omit<ExtractionLimits, 'timeoutMs' | 'maxHeapMb' | 'maxResidentMb'>;
  /** The OCR languages, for pages without a text layer (none: such a page is left empty). */
  ocrLanguages?: readonly string[];
  /** For a PDF: render page `renderPage` (1-based) as a PNG instead of extracting text. */
  renderPage?: number;
  /**
   * For a PDF read by several processes at once: this process reads slice `index` of `count`
   * equal runs of pages, and answers with its pages unformatted for the parent to join.
   */
  slice?: { index: number; count: number };
}

/** The worker's answer to one job. */
export type ExtractionReply =
  | { id: number; ok: true; document: DocumentText }
  | { id: number; ok: true; slice: FormattedSlice }
  | { id: number; ok: true; image: Uint8Array }
  | { id: number; ok: false; reason: ExtractionFailureReason; message: string };

/**
 * What the worker says while a job runs: `done` of its `total` pages are read; `ocr` when the
 * next page is being recognised (its own time bound starts, spec R120).
 */
export interface ExtractionProgress {
  id: number;
  progress: { done: number; total: number; ocr?: true };
}

/** An extraction refused for a reason the caller turns into an error code. */
export class ExtractionFailure extends Error {
  /** Why it failed. */
  readonly reason: ExtractionFailureReason;

  // Contract: no parameter properties: the worker runs this file with Node's type stripping.
  constructor(reason: ExtractionFailureReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** Where one part (a page or chapter) of a document's text begins, and what it is. */
export interface DocumentPart {
  /** The 1-based line of the text where the part's marker is. */
  line: number;
  /** The chapter's title, when it has one. */
  title?: string;
  /** True when the part has no text (a scanned page, an image-only chapter). */
  empty?: true;
  /** When its text was recognised by OCR (a page without a text layer, spec R120). */
  recognised?: Recognition;
  /** Why a page without a text layer was not recognised (no OCR engine or language here). */
  unrecognised?: string;
  /** Why the part could not be read, when it could not. */
  failed?: string;
}

/**
 * A document as the model reads it (spec R60): its text with a marker line before each page or
 * chapter (`[Page 3 of 12]`), and where each part begins. Lines are counted in this text.
 */
export interface DocumentText {
  format: DocumentFormat;
  /** What a part is; absent for a document of one part (DOCX, HTML). */
  unit?: 'page' | 'chapter';
  /** The parts, in order; one for a document without units. */
  parts: DocumentPart[];
  /** The marked text. */
  text: string;
  /** The sha256 (hex) of each part's text, so a change can name the parts that changed. */
  hashes: string[];
}
