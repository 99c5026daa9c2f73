import type { PromptMaterial } from './assemble-system-prompt-input.js';
import { escapeXml, xmlTag } from './xml-text.js';

const TYPE_NAMES: Record<string, string> = {
  pdf: 'PDF',
  docx: 'Word document',
  epub: 'EPUB',
  html: 'web page',
  text: 'text file',
};

/** A size for people: `812 B`, `14 KB`, `1.2 MB`. */
function size(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1000)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** One material's line: its identity, title, type and size, and what is wrong with it. */
function line(material: PromptMaterial): string {
  const title = material.title === undefined ? '' : ` "${escapeXml(material.title)}"`;
  const type =
    material.type === undefined ? undefined : (TYPE_NAMES[material.type] ?? material.type);
  if (material.state === 'vanished') {
    return `- ${material.identity}${title}${type ? ` (${type})` : ''}: its file is gone; it cannot be read`;
  }
  const facts = [
    material.state === 'changed'
      ? `was ${/^[aeiou]/iu.test(type ?? 'file') ? 'an' : 'a'} ${type ?? 'file'}, now ${escapeXml(material.currentType ?? 'something else')}`
      : type,
    material.bytes === undefined ? undefined : size(material.bytes),
  ].filter((fact) => fact !== undefined);
  return `- ${material.identity}${title}${facts.length > 0 ? ` (${facts.join(', ')})` : ''}`;
}

/**
 * The `materials` section (spec R15, R54): the outside materials the learner granted to this
 * space, by identity, with their title, type and size, and how to read them. Never their paths.
 */
export function materialsSection(materials: readonly PromptMaterial[]): string {
  return xmlTag(
    'materials',
    [
      'Outside materials the learner granted to this space. They are not files of the space: address them by identity with read (pages selects pages of a PDF or chapters of an EPUB) and grep (path). They are read-only.',
      ...materials.map(line),
    ].join('\n'),
  );
}
