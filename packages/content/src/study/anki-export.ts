/** What an export takes of a card. */
interface AnkiCard {
  id: string;
  /** The note holding it (its folders make the deck). */
  note: string;
  front: string;
  back: string;
  tags: readonly string[];
}

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');

/** A field: HTML-escaped, line breaks as `<br>`, no tab (the separator). */
const field = (text: string) => escapeHtml(text).replaceAll('\t', ' ').replaceAll('\n', '<br>');

/** The deck a note's cards go to: `Repa`, then its folders (`Repa::biology::cells`). */
function deckOf(note: string): string {
  const folders = note.split('/').slice(0, -1);
  return ['Repa', ...folders]
    .map((name) => name.replaceAll('::', ':').replaceAll('\t', ' '))
    .join('::');
}

/** A tag as Anki takes it: no spaces. */
const tagOf = (tag: string) => tag.replaceAll(/\s+/gu, '_');

/**
 * Cards as Anki's text import (spec R104): tab-separated, HTML fields, one Basic note per card
 * with the card's id as its GUID (column 1), so importing a later export again updates the notes
 * instead of adding copies. Columns: GUID, note type, deck, front, back, tags.
 */
export function ankiText(cards: readonly AnkiCard[]): string {
  const lines = [
    '#separator:tab',
    '#html:true',
    '#guid column:1',
    '#notetype column:2',
    '#deck column:3',
    '#tags column:6',
  ];
  for (const card of cards) {
    const tags = ['repa', ...card.tags].map(tagOf).join(' ');
    lines.push(
      [card.id, 'Basic', deckOf(card.note), field(card.front), field(card.back), tags].join('\t'),
    );
  }
  return `${lines.join('\n')}\n`;
}
