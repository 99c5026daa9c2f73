/** Escape text for an XML-ish attribute value or a one-line element (as Pi escapes skill fields). */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * Wrap a section body in `<tag>` … `</tag>` lines so the section is self-delimiting.
 * Contract: the body is inserted as given; callers escape whatever must be escaped.
 */
export function xmlTag(tag: string, body: string, attributes = ''): string {
  return `<${tag}${attributes}>\n${body}\n</${tag}>`;
}
