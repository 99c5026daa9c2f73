/**
 * A citation of line `line` of `path` in Repa's form (see the protocol README), on its page
 * (`#pN`, lines counted from the one after the page's marker) when it is a document's line,
 * quoting at most its first eight words when they hold no double quote.
 */
export function citationOf(path: string, line: number, text: string, page?: number): string {
  const document = /\s/.test(path) ? `<${path}>` : path;
  const words = text.split(/\s+/).slice(0, 8).join(' ');
  const quote = words === '' || words.includes('"') ? '' : ` "${words}"`;
  return `[${document}${page === undefined ? '' : `#p${page}`}:${line}${quote}]`;
}
