import DOMPurify from 'dompurify';
import { Marked, type TokensList } from 'marked';
import { escapeHtml, fileLinksExtension } from './file-links.js';

// Raw HTML in Markdown (from the model or from a file) is shown as text, never parsed as HTML. An
// image is never loaded (the page loads nothing from elsewhere, and a note's or an answer's image
// address could tell someone what is read): it is a link to its address, named by its text.
const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: (token) => escapeHtml(token.text),
    image: ({ href, title, text }) =>
      `<a class="image-link" href="${escapeHtml(href)}" title="${escapeHtml(
        title ?? `Image not loaded: ${href}`,
      )}">${escapeHtml(`Image: ${text || href}`)}</a>`,
  },
});
// Citations and file names in code spans link to the reader (file-links.ts).
marked.use(fileLinksExtension);

/** The sanitizer, made on first use: DOMPurify needs the page's window (not there in Node tests). */
let purify: ReturnType<typeof DOMPurify> | undefined;

function makePurify(): ReturnType<typeof DOMPurify> {
  const made = DOMPurify();
  // Set once: a config passed to each call is parsed again on every call.
  made.setConfig({
    USE_PROFILES: { html: true },
    // Nothing that loads from an address is kept, should a renderer ever make it.
    FORBID_TAGS: [
      'style',
      'form',
      'input',
      'button',
      'textarea',
      'select',
      'img',
      'picture',
      'source',
      'video',
      'audio',
      'track',
    ],
    FORBID_ATTR: ['style', 'srcset', 'poster', 'background', 'ping'],
  });
  // Every link opens in a new tab without access to this page; DOMPurify already drops
  // `javascript:` and other unsafe URLs.
  made.addHook('afterSanitizeAttributes', (node) => {
    if (
      node.tagName === 'A' &&
      node.hasAttribute('href') &&
      !node.hasAttribute('data-reader-path')
    ) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return made;
}

/** Markdown as safe HTML: raw HTML escaped, then sanitized; links open in a new tab. */
export function renderMarkdown(markdown: string): string {
  return sanitize(marked.parse(markdown, { async: false }));
}

function sanitize(html: string): string {
  purify ??= makePurify();
  return purify.sanitize(html);
}

/** One top-level block of a Markdown text, rendered, with the lines of the text it came from. */
export interface MarkdownBlock {
  /** Its first line in the text (from 1). */
  line: number;
  /** Its last line. */
  endLine: number;
  /** The block as safe HTML (as {@link renderMarkdown} makes it). */
  html: string;
}

/** One top-level block of a Markdown text as `marked` reads it, with the lines it came from. */
export interface MarkdownSource {
  /** Its first line in the text (from 1). */
  line: number;
  /** Its last line. */
  endLine: number;
  /** Its token, with the text's link definitions (a reference link renders in any block). */
  tokens: TokensList;
}

/** A Markdown text's top-level blocks (blank lines between them left out), each with its lines. */
export function markdownSources(markdown: string): MarkdownSource[] {
  const tokens = marked.lexer(markdown);
  const sources: MarkdownSource[] = [];
  let line = 1;
  for (const token of tokens) {
    if (token.type !== 'space') {
      const own = token.raw.replace(/\s+$/u, '').split('\n').length;
      const single = Object.assign([token], { links: tokens.links });
      sources.push({ line, endLine: line + own - 1, tokens: single });
    }
    line += token.raw.split('\n').length - 1;
  }
  return sources;
}

/** A Markdown text as its top-level blocks, each with its lines (the reader marks a line's block). */
export function renderMarkdownBlocks(markdown: string): MarkdownBlock[] {
  return markdownSources(markdown).map(({ line, endLine, tokens }) => ({
    line,
    endLine,
    html: sanitize(marked.parser(tokens)),
  }));
}
