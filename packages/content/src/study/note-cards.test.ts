import { describe, expect, it } from 'vitest';
import { formatCardComment } from './card-comment.js';
import { noteTags, parseNoteCards } from './note-cards.js';

const NOTE = 'repa:document/0b6f1f5e-2f44-4a7e-9d1c-000000000001';

describe('cards in notes', () => {
  it('reads the Obsidian syntaxes: basic, reversed, multi-line (and reversed), cloze', () => {
    const text = [
      '# Cells',
      '',
      'What is ATP?::The energy currency of the cell',
      'Mitochondria:::Powerhouse',
      '',
      'Name the stages',
      'of mitosis',
      '?',
      'Prophase, metaphase,',
      'anaphase, telophase',
      '',
      'Osmosis',
      '??',
      'Water crossing a membrane',
      '',
      'The ==nucleus== holds the ==DNA==.',
    ].join('\n');
    const cards = parseNoteCards(text, NOTE);
    expect(cards.map((card) => [card.kind, card.front, card.back, card.line])).toEqual([
      ['basic', 'What is ATP?', 'The energy currency of the cell', 3],
      ['reversed', 'Mitochondria', 'Powerhouse', 4],
      ['reversed', 'Powerhouse', 'Mitochondria', 4],
      ['multiline', 'Name the stages\nof mitosis', 'Prophase, metaphase,\nanaphase, telophase', 6],
      ['multiline-reversed', 'Osmosis', 'Water crossing a membrane', 12],
      ['multiline-reversed', 'Water crossing a membrane', 'Osmosis', 12],
      ['cloze', 'The [...] holds the DNA.', 'nucleus', 16],
      ['cloze', 'The nucleus holds the [...].', 'DNA', 16],
    ]);
    expect(new Set(cards.map((card) => card.id)).size).toBe(cards.length);
  });

  it('reads a cloze line written among inline cards as a card of its own', () => {
    const text = [
      'What builds proteins?::Ribosomes',
      'The ==nucleus== holds the DNA.',
      'Photosynthesis:::Light to sugar',
      'A plain line between them.',
    ].join('\n');
    const cards = parseNoteCards(text, NOTE);
    expect(cards.map((card) => [card.kind, card.front, card.back, card.line])).toEqual([
      ['basic', 'What builds proteins?', 'Ribosomes', 1],
      ['cloze', 'The [...] holds the DNA.', 'nucleus', 2],
      ['reversed', 'Photosynthesis', 'Light to sugar', 3],
      ['reversed', 'Light to sugar', 'Photosynthesis', 3],
    ]);
  });

  it('takes the id and source from the Repa comment after a card, and reads past an SR comment', () => {
    const source = { id: 'cabcdefghij', cite: 'src/a.md:2-3', version: 'f'.repeat(64), quote: 'q' };
    const text = [
      'Q1::A1 <!--SR:!2024-08-16,51,230-->',
      formatCardComment(source),
      '',
      'Front',
      '?',
      'Back',
      '<!--SR:!2024-08-16,3,250-->',
      formatCardComment({ ...source, id: 'cklmnopqrst' }),
      '',
      'A ==b== c ==d==',
      formatCardComment({ ...source, id: 'cuvwxyz2345' }),
    ].join('\n');
    const cards = parseNoteCards(text, NOTE);
    expect(cards.map((card) => [card.id, card.back, card.obsidianSchedule, card.endLine])).toEqual([
      ['cabcdefghij', 'A1', false, 1],
      ['cklmnopqrst', 'Back', true, 6],
      ['cuvwxyz2345', 'b', false, 10],
      ['cuvwxyz2345-2', 'd', false, 10],
    ]);
    expect(cards[0]?.source).toEqual(source);
  });

  it("gives a hand-written card an id from its note's identity and its front: a new back keeps it", () => {
    const [before] = parseNoteCards('What is ATP?::energy', NOTE);
    const [edited] = parseNoteCards('intro\n\nWhat is ATP?::The energy currency', NOTE);
    const [elsewhere] = parseNoteCards('What is ATP?::energy', `${NOTE.slice(0, -1)}2`);
    const [reworded] = parseNoteCards('What is ATP for?::energy', NOTE);
    expect(edited?.id).toBe(before?.id);
    expect(edited?.textHash).not.toBe(before?.textHash);
    expect(elsewhere?.id).not.toBe(before?.id);
    expect(reworded?.id).not.toBe(before?.id);
    expect(before?.id).toMatch(/^h[a-z2-7]{12}$/u);
  });

  it('finds no cards in fenced code, inline code, front matter or headings', () => {
    const text = [
      '---',
      'title: a::b',
      '---',
      '```cpp',
      'std::vector<int> v;',
      '```',
      'Use `std::move` here',
      '## Heading::not a card',
      'Plain text with one colon: here',
    ].join('\n');
    expect(parseNoteCards(text, NOTE)).toEqual([]);
  });

  it('reads the tags a note names, outside code', () => {
    expect(noteTags('#bio text #bio/cells\n```\n#not\n```\n# Heading')).toEqual([
      'bio',
      'bio/cells',
    ]);
  });
});
