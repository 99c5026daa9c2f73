import { describe, expect, it } from 'vitest';
import { parseCardComment } from './card-comment.js';
import { formatCard, placeCards } from './card-markdown.js';
import { givesAnswerAway, parseDraftAnswer } from './draft-answer.js';

const source = { id: 'cabcdefghij', cite: 'notes/x.md:3', version: 'v', quote: 'q' };

describe('formatCard', () => {
  it('writes one-line, multi-line and cloze cards in the Obsidian syntax, each with its comment', () => {
    const lines = (front: string, back: string) => formatCard({ front, back }, source).split('\n');
    expect(lines('What is ATP?', 'The energy currency')).toEqual([
      'What is ATP?::The energy currency',
      expect.any(String),
    ]);
    expect(lines('Name the stages:', 'Glycolysis\nKrebs cycle')).toEqual([
      'Name the stages:',
      '?',
      'Glycolysis',
      'Krebs cycle',
      expect.any(String),
    ]);
    expect(lines('a::b', 'c')).toEqual(['a::b', '?', 'c', expect.any(String)]);
    const cloze = lines('==ATP== is the energy currency.', '');
    expect(cloze[0]).toBe('==ATP== is the energy currency.');
    expect(parseCardComment(cloze[1] ?? '')).toEqual(source);
  });

  it('refuses sides that would break the card', () => {
    for (const [front, back] of [
      ['', 'x'],
      ['What?', ''],
      ['Q\n\nmore', 'x'],
      ['Q', '?'],
      ['Q <!-- x', 'a'],
    ] as const) {
      expect(() => formatCard({ front, back }, source)).toThrow(
        expect.objectContaining({ code: 'invalid_request' }),
      );
    }
  });
});

describe('placeCards', () => {
  it('appends new cards after a blank line and replaces a card with the same id in place', () => {
    const card = (id: string, text: string) => ({
      id,
      markdown: formatCard({ front: text, back: 'x' }, { ...source, id }),
    });
    const first = placeCards(null, [card('c1111', 'One')]);
    expect(first.text.split('\n')[0]).toBe('One::x');
    const second = placeCards(`# Title\r\n${first.text.replaceAll('\n', '\r\n')}`, [
      card('c2222', 'Two'),
      card('c1111', 'One again\nand more'),
    ]);
    expect(second.replaced).toEqual(['c1111']);
    expect(second.text.split('\r\n').map((line) => parseCardComment(line)?.id ?? line)).toEqual([
      '# Title',
      'One again',
      'and more',
      '?',
      'x',
      'c1111',
      '',
      'Two::x',
      'c2222',
      '',
    ]);
  });
});

describe('a draft answer', () => {
  it('is read card by card; text around the cards belongs to none', () => {
    const answer =
      '[repa-offline] Cards:\n\n1. **Q:** What turns?\ncontinued\nA: The tide\nSource: [a.md:1]\n\nnot a field\nCloze: The ==tide== turns.\nSource: [a.md:2]\n\nThat is all.';
    const cards = parseDraftAnswer(answer);
    expect(cards.map(({ front, back, cloze }) => [front, back, cloze])).toEqual([
      ['What turns?\ncontinued', 'The tide', false],
      ['The ==tide== turns.', '', true],
    ]);
    const source = cards[1]?.source;
    expect(answer.slice(source?.start, source?.end)).toBe('[a.md:2]');
  });

  it('gives its answer away when the front holds it', () => {
    expect(givesAnswerAway({ front: 'Is ATP the energy currency?', back: 'ATP' })).toBeDefined();
    expect(givesAnswerAway({ front: 'What is the energy currency?', back: 'ATP' })).toBeUndefined();
    expect(givesAnswerAway({ front: '==ATP== is made from ATP synthase', back: '' })).toBeDefined();
    expect(givesAnswerAway({ front: 'ATP is made by mitochondria', back: '' })).toBeDefined();
    expect(givesAnswerAway({ front: '==ATP== is made by mitochondria', back: '' })).toBeUndefined();
  });
});
