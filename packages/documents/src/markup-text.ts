import { createRequire } from 'node:module';
import mammoth from 'mammoth';
import TurndownService from 'turndown';
import { type ExtractedDocument, ExtractionFailure, type ExtractionRequest } from './extracted.ts';
import { zipEntries } from './zip-entries.ts';

// Turndown's own DOM (its types declare another module name, so it is loaded untyped).
const domino = createRequire(import.meta.url)('@mixmark-io/domino') as {
  createDocument(html: string): Document;
};

/** Elements that hold no reading text (scripts, styles, page furniture, controls). */
const NOT_TEXT = [
  'script',
  'style',
  'noscript',
  'template',
  'iframe',
  'object',
  'embed',
  'svg',
  'canvas',
  'nav',
  'form',
  'button',
  'select',
  'textarea',
] as const;

let turndown: TurndownService | undefined;

/** One converter per worker: Markdown with `#` headings, fenced code and `-` lists. */
function converter(): TurndownService {
  if (turndown !== undefined) return turndown;
  const service = new TurndownService({
    headingStyle: 'atx',
    codeBlockStyle: 'fenced',
    bulletListMarker: '-',
  });
  service.remove([...NOT_TEXT] as unknown as TurndownService.Filter);
  // An image is its description: a saved page's inline images (data: URLs) would be pages of base64.
  service.addRule('image', {
    filter: 'img',
    replacement: (_content, node) => {
      const alt = (node as HTMLElement).getAttribute('alt')?.trim();
      return alt ? `[image: ${alt}]` : '';
    },
  });
  // A link keeps its text, and its address only when it is one a reader could follow.
  service.addRule('link', {
    filter: (node) => node.nodeName === 'A',
    replacement: (content, node) => {
      const href = (node as HTMLElement).getAttribute('href')?.trim() ?? '';
      return /^https?:\/\//iu.test(href) && content.trim() !== ''
        ? `[${content}](${href})`
        : content;
    },
  });
  turndown = service;
  return service;
}

/** The character set an HTML file declares in its first bytes (a BOM or a `<meta>`), else UTF-8. */
function charsetOf(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const head = Buffer.from(bytes.subarray(0, 2048)).toString('latin1');
  const declared = /<meta[^>]+charset\s*=\s*["']?([\w-]+)/iu.exec(head)?.[1];
  return declared ?? 'utf-8';
}

/** Decodes an HTML file by its declared character set (an unknown one reads as UTF-8). */
export function decodeHtml(bytes: Uint8Array): string {
  try {
    return new TextDecoder(charsetOf(bytes)).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}

/**
 * Readable Markdown of an HTML page: the `<main>` (or single `<article>`) when the page has one,
 * else its `<body>`, without scripts, styles, navigation and controls. `heading` is its first
 * Markdown heading; with `withTitle` the page's `<title>` comes first unless the text starts with it.
 */
export function htmlToMarkdown(
  html: string,
  withTitle: boolean,
): { heading?: string; text: string } {
  const document = domino.createDocument(html);
  const title = document.querySelector('title')?.textContent?.replace(/\s+/gu, ' ').trim();
  const articles = document.querySelectorAll('article');
  const root =
    document.querySelector('main') ??
    (articles.length === 1 ? articles[0] : undefined) ??
    document.body ??
    document.documentElement;
  let text = root ? tidy(converter().turndown(root as unknown as HTMLElement)) : '';
  if (withTitle && title && !text.startsWith(`# ${title}`) && text.split('\n', 1)[0] !== title) {
    text = `# ${title}\n\n${text}`.trim();
  }
  const heading = /^#{1,6} (.+)$/mu.exec(text)?.[1]?.trim();
  return { ...(heading ? { heading } : {}), text };
}

/** Trailing spaces off, runs of blank lines cut to one. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
}

/** The text of an HTML page as Markdown, one part. */
export function htmlText(
  bytes: Uint8Array,
  limits: ExtractionRequest['limits'],
): ExtractedDocument {
  const { text } = htmlToMarkdown(decodeHtml(bytes), true);
  if (text.length > limits.maxTextChars) {
    throw new ExtractionFailure('text_limit', `its text passes ${limits.maxTextChars} characters`);
  }
  return { format: 'html', parts: [{ text }] };
}

/**
 * The text of a Word document (DOCX) as Markdown, one part: Mammoth's HTML (headings, lists,
 * tables, emphasis; images as their descriptions) through the HTML path. The archive is measured
 * first (a decompression bomb is refused before Mammoth inflates it).
 */
export async function docxText(
  bytes: Uint8Array,
  limits: ExtractionRequest['limits'],
): Promise<ExtractedDocument> {
  zipEntries(bytes, () => true, limits, false);
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        // Mammoth adds the image's description as `alt`; its bytes stay out of the text.
        convertImage: mammoth.images.imgElement(async () => ({ src: '' })),
      },
    );
    html = result.value;
  } catch (error) {
    throw new ExtractionFailure(
      'damaged',
      `it is not a readable Word document (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const text = tidy(converter().turndown(html));
  if (text.length > limits.maxTextChars) {
    throw new ExtractionFailure('text_limit', `its text passes ${limits.maxTextChars} characters`);
  }
  return { format: 'docx', parts: [{ text }] };
}
