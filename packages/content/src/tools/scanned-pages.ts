import type { ImageContent } from '@earendil-works/pi-ai';
import { type DocumentText, renderPdfPage } from '@repa/documents';
import { Type } from 'typebox';
import { documentText } from '../documents/index.js';
import type { ContentSnapshot } from '../space/index.js';
import type { ContentToolsOptions } from './tool-options.js';

/** The `as` parameter of `read` (spec R121). */
export const AS_PARAMETER = Type.Optional(
  Type.Union([Type.Literal('text'), Type.Literal('image')], {
    description:
      'For a PDF page or an image file: "image" sends the page itself as an image (to a model that can see), "text" its text (recognised by OCR when the page has no text layer). Default: a scanned page or image as an image when the model accepts images, else as text',
  }),
);

/** The most page images one `read` sends; the model asks for other pages with `pages`. */
const MAX_PAGE_IMAGES = 4;

/** Whether the run's model accepts images (Pi's `input`); without a model, as Pi: it does. */
export function modelSees(model: { input: readonly string[] } | undefined): boolean {
  return model === undefined || model.input.includes('image');
}

/** What a `read` of a document tells of pages recognised by OCR and pages sent as images. */
export interface ScannedFacts {
  /** The pages shown whose text was recognised by OCR, with the engine's confidence. */
  recognised?: { page: number; engine: string; confidence: number }[];
  /** The pages sent to the model as images (spec R121). */
  images?: number[];
}

/** The recognised pages among `first`…`last` (1-based) of `document`. */
function recognisedPages(
  document: DocumentText,
  first: number,
  last: number,
): NonNullable<ScannedFacts['recognised']> {
  return document.parts.flatMap((part, index) =>
    part.recognised !== undefined && index + 1 >= first && index + 1 <= last
      ? [{ page: index + 1, ...part.recognised }]
      : [],
  );
}

/**
 * The page images a `read` of a PDF sends a model that sees (spec R121): the scanned pages shown
 * (recognised by OCR), or every page shown with `as: "image"`, at most {@link MAX_PAGE_IMAGES};
 * none for a text-only model or `as: "text"`. The pages' text is sent too, so a citation of
 * their lines is checked against it.
 */
export async function scannedPages(
  snapshot: ContentSnapshot,
  document: DocumentText,
  shown: { first: number; last: number },
  ask: { as?: 'text' | 'image' | undefined; sees: boolean; signal?: AbortSignal | undefined },
): Promise<{ facts: ScannedFacts; images: ImageContent[]; note?: string }> {
  const recognised = recognisedPages(document, shown.first, shown.last);
  const facts: ScannedFacts = recognised.length > 0 ? { recognised } : {};
  if (document.format !== 'pdf' || !ask.sees || ask.as === 'text') return { facts, images: [] };
  const wanted =
    ask.as === 'image'
      ? Array.from({ length: shown.last - shown.first + 1 }, (_, index) => shown.first + index)
      : recognised.map((page) => page.page);
  const pages = wanted.slice(0, MAX_PAGE_IMAGES);
  const images: ImageContent[] = [];
  for (const page of pages) {
    const png = await renderPdfPage(snapshot.bytes, page, {
      shown: JSON.stringify(snapshot.target),
      ...(ask.signal === undefined ? {} : { signal: ask.signal }),
    });
    images.push({
      type: 'image',
      data: Buffer.from(png).toString('base64'),
      mimeType: 'image/png',
    });
  }
  if (pages.length > 0) facts.images = pages;
  const more = wanted.length - pages.length;
  const note =
    pages.length === 0
      ? undefined
      : `[The image${pages.length === 1 ? '' : 's'} of page${pages.length === 1 ? '' : 's'} ${pages.join(', ')} follow${pages.length === 1 ? 's' : ''}${more > 0 ? `; ${more} more: read them with pages` : ''}.]`;
  return { facts, images, ...(note === undefined ? {} : { note }) };
}

/**
 * An image file's text recognised by OCR (spec R120), for a model that cannot see it or a read
 * with `as: "text"`: a one-part document; `ocr_unavailable` without the engine or a language.
 */
export function imageText(
  snapshot: ContentSnapshot,
  options: ContentToolsOptions,
  signal: AbortSignal | undefined,
): Promise<DocumentText> {
  const languages = options.ocrLanguages?.();
  return documentText(
    options.store,
    { bytes: snapshot.bytes, version: snapshot.version, format: 'image' },
    JSON.stringify(snapshot.target),
    {
      ...(languages === undefined ? {} : { ocrLanguages: languages }),
      ...(signal === undefined ? {} : { signal }),
    },
  );
}
