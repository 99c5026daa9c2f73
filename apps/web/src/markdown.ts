import DOMPurify from 'dompurify';
import { Marked } from 'marked';

const escapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` with HTML's special characters escaped. */
function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => escapes[character] ?? character);
}

// Raw HTML in Markdown (from the model or from a file) is shown as text, never parsed as HTML.
const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html: (token) => escapeHtml(token.text),
  },
});

const purify = DOMPurify();
// Every link opens in a new tab without access to this page; DOMPurify already drops
// `javascript:` and other unsafe URLs.
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A' && node.hasAttribute('href')) {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
});

/** Markdown as safe HTML: raw HTML escaped, then sanitized; links open in a new tab. */
export function renderMarkdown(markdown: string): string {
  const html = marked.parse(markdown, { async: false });
  return purify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
    FORBID_ATTR: ['style'],
  });
}
