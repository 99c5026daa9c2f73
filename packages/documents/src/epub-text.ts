import { posix } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import {
  type ExtractedDocument,
  type ExtractedPart,
  ExtractionFailure,
  type ExtractionRequest,
} from './extracted.ts';
import { decodeHtml, htmlToMarkdown } from './markup-text.ts';
import { zipEntries } from './zip-entries.ts';

/** What an EPUB's files may be for its text: the container, the package document, chapters. */
const TEXT_FILE = /(^META-INF\/container\.xml$|\.opf$|\.x?html?$|\.xml$)/iu;

function xml(bytes: Uint8Array | undefined, name: string): Document {
  if (bytes === undefined) throw new ExtractionFailure('damaged', `it has no ${name}`);
  let document: Document | undefined;
  try {
    document = new DOMParser({
      // A malformed package document is damaged, never a half-read one.
      errorHandler: {
        warning: () => undefined,
        error: () => undefined,
        fatalError: () => undefined,
      },
    }).parseFromString(new TextDecoder().decode(bytes), 'application/xml') as unknown as Document;
  } catch {
    document = undefined;
  }
  if (!document?.documentElement) throw new ExtractionFailure('damaged', `its ${name} is damaged`);
  return document;
}

/** Elements named `local` in any namespace (EPUB files use prefixes inconsistently). */
function elements(document: Document, local: string): Element[] {
  return Array.from(document.getElementsByTagName('*')).filter(
    (element) => (element.localName ?? element.nodeName.split(':').pop()) === local,
  );
}

/**
 * The chapters of an EPUB in reading order (its spine), each as Markdown through the HTML path,
 * titled by its first heading. Only the container, the package document and the spine's files are
 * inflated, within the limits.
 */
export function epubText(
  bytes: Uint8Array,
  limits: ExtractionRequest['limits'],
): ExtractedDocument {
  const files = zipEntries(bytes, (name) => TEXT_FILE.test(name), limits);
  const container = xml(files.get('META-INF/container.xml'), 'META-INF/container.xml');
  const packagePath = elements(container, 'rootfile')[0]?.getAttribute('full-path');
  if (!packagePath) throw new ExtractionFailure('damaged', 'its container names no package file');
  const opf = xml(files.get(packagePath), packagePath);
  const base = posix.dirname(packagePath);
  const manifest = new Map<string, string>();
  for (const item of elements(opf, 'item')) {
    const id = item.getAttribute('id');
    const href = item.getAttribute('href');
    if (id && href) manifest.set(id, href);
  }
  const spine = elements(opf, 'itemref').flatMap((ref) => {
    const href = manifest.get(ref.getAttribute('idref') ?? '');
    return href === undefined ? [] : [href];
  });
  if (spine.length > limits.maxPages) {
    throw new ExtractionFailure(
      'page_limit',
      `it has ${spine.length} chapters, more than the ${limits.maxPages} Repa extracts`,
    );
  }
  const parts: ExtractedPart[] = [];
  let chars = 0;
  for (const href of spine) {
    let path: string;
    try {
      path = posix.normalize(posix.join(base, decodeURIComponent(href.split('#')[0] ?? '')));
    } catch {
      path = posix.join(base, href);
    }
    const chapter = files.get(path);
    if (chapter === undefined) {
      parts.push({ title: path, text: '', failed: 'the file is missing from the archive' });
      continue;
    }
    const { heading, text } = htmlToMarkdown(decodeHtml(chapter), false);
    chars += text.length;
    if (chars > limits.maxTextChars) {
      throw new ExtractionFailure(
        'text_limit',
        `its text passes ${limits.maxTextChars} characters`,
      );
    }
    parts.push({ title: heading ?? posix.basename(path), text });
  }
  if (parts.length === 0) throw new ExtractionFailure('damaged', 'its spine lists no chapters');
  return { format: 'epub', unit: 'chapter', parts };
}
