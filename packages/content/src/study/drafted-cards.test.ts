import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CELLS_NOTE as CELLS, makePdf } from '@repa/fixtures';
import { describe, expect, it } from 'vitest';
import { passageRun } from '../test/passage-run.js';
import { tempSpaces } from '../test/temp-space.js';
import { acceptCards } from './accept-cards.js';
import { parseCardComment } from './card-comment.js';
import { draftRequestText, parseDraftRequest, parsePassage } from './draft-request.js';
import { draftedCards } from './drafted-cards.js';

const space = tempSpaces();

/** A draft run over `passage` in a real space: the real read tool's result, checked citations. */
async function draft(
  files: Record<string, string | Uint8Array>,
  passage: string,
  answer: string,
  redraft?: { id: string; note: string },
  alsoRead: Record<string, unknown>[] = [],
) {
  const root = await space(files);
  const request = draftRequestText({
    passage: parsePassage(passage),
    ...(redraft ? { redraft } : {}),
  });
  const { store, run } = await passageRun(root, {
    passage,
    request,
    answer,
    runId: 'run1',
    alsoRead,
  });
  return { root, store, run, drafted: await draftedCards(store, run) };
}

describe('draftedCards', () => {
  it('keeps cards whose citation verifies inside the passage and drops the others, each with its reason', async () => {
    const answer = [
      '[model] Here are the cards.',
      '',
      'Cloze: ==ATP== is the energy currency of the cell.',
      'Source: [notes/cells.md:3 "ATP is the energy currency"]',
      '',
      'Q: What makes most of the ATP?',
      'A: Mitochondria',
      'Source: [notes/cells.md:4 "Mitochondria make most of the ATP"]',
      '',
      'Q: What do ribosomes build?',
      'A: Proteins',
      'Source: [notes/cells.md:5 "Ribosomes build proteins"]',
      '',
      'Q: What is the energy currency of the cell?',
      'A: ATP',
      'Source: [notes/cells.md:4 "ATP is the energy currency"]',
      '',
      'Q: Do mitochondria make ATP? (Mitochondria make most of the ATP)',
      'A: mitochondria make most of the ATP',
      'Source: [notes/cells.md:4]',
      '',
      'Q: What is this note about?',
      'A: Cells',
      'Source: [notes/cells.md:1 "# Cells"]',
      '',
      'Q: Who found ATP?',
      'A: Lohmann',
      'Source: none',
    ].join('\n');
    // The model read the whole note, not only the passage asked for.
    const { drafted } = await draft(
      { 'notes/cells.md': CELLS },
      'notes/cells.md:3-5',
      answer,
      undefined,
      [{ path: 'notes/cells.md' }],
    );
    expect(drafted.passage).toBe('notes/cells.md:3-5');
    expect(drafted.note).toBe('cards/cells.md');
    expect(drafted.cards.map((card) => [card.front, card.back, card.cite, card.quote])).toEqual([
      ['==ATP== is the energy currency of the cell.', '', 'notes/cells.md:3', CELLS.split('\n')[2]],
      ['What makes most of the ATP?', 'Mitochondria', 'notes/cells.md:4', CELLS.split('\n')[3]],
      ['What do ribosomes build?', 'Proteins', 'notes/cells.md:5', CELLS.split('\n')[4]],
    ]);
    expect(drafted.cards.every((card) => card.citation.status === 'verified')).toBe(true);
    expect(new Set(drafted.cards.map((card) => card.id)).size).toBe(3);
    expect(drafted.dropped.map(({ index, reason }) => [index, reason])).toEqual([
      [4, 'forged_quote'],
      [5, 'gives_away'],
      [6, 'outside_passage'],
      [7, 'no_citation'],
    ]);
    expect(drafted.dropped[0]?.explanation).toContain('"ATP is the energy currency" are not in');
    expect(drafted.dropped[2]?.explanation).toContain('outside lines 3–5');
  });

  it('drops a card citing lines the run did not read, and one whose source changed since', async () => {
    const answer = [
      'Q: What is the title?',
      'A: Cells',
      'Source: [notes/cells.md:1 "Cells"]',
      '',
      'Q: What do ribosomes build?',
      'A: Proteins',
      'Source: [notes/cells.md:5 "Ribosomes build proteins"]',
    ].join('\n');
    const { store, run, drafted } = await draft(
      { 'notes/cells.md': CELLS },
      'notes/cells.md:5',
      answer,
    );
    expect(drafted.dropped.map((card) => card.reason)).toEqual(['not_verified']);
    expect(drafted.cards).toHaveLength(1);
    const root = store.root;
    await store.save([
      {
        target: 'notes/cells.md',
        content: Buffer.from(`${CELLS}More.\n`),
        expectedVersion: drafted.cards[0]?.version ?? null,
      },
    ]);
    const again = await draftedCards(store, run);
    expect(again.cards).toEqual([]);
    expect(again.dropped.map((card) => card.reason)).toEqual(['not_verified', 'source_changed']);
    expect(root).toBeTruthy();
  });

  it('drafts from a page of a PDF, citing lines counted on the page', async () => {
    const book = makePdf([
      { lines: ['Week 1', 'Topic 1 of the course.'] },
      { lines: ['Week 2', 'The Krebs cycle releases carbon dioxide.'] },
    ]);
    const answer = [
      'Cloze: The Krebs cycle releases ==carbon dioxide==.',
      'Source: [book.pdf#p2:2 "The Krebs cycle releases carbon dioxide."]',
      '',
      'Q: What is week 1 about?',
      'A: Topic 1',
      'Source: [book.pdf#p1:2]',
    ].join('\n');
    const { drafted } = await draft({ 'book.pdf': book }, 'book.pdf#p2', answer);
    expect(drafted.note).toBe('cards/book.md');
    expect(drafted.cards.map((card) => [card.cite, card.quote])).toEqual([
      ['book.pdf#p2:2', 'The Krebs cycle releases carbon dioxide.'],
    ]);
    // Page 1 was never read: the draft read page 2 only.
    expect(drafted.dropped.map((card) => card.reason)).toEqual(['not_verified']);
  });
});

describe('acceptCards', () => {
  const ANSWER = [
    'Cloze: ==ATP== is the energy currency of the cell.',
    'Source: [notes/cells.md:3]',
    '',
    'Q: What makes most of the ATP?',
    'A: Mitochondria',
    'Source: [notes/cells.md:4]',
  ].join('\n');

  it('appends the chosen cards, as edited, each followed by its card comment, as a save of the run', async () => {
    const { root, store, drafted } = await draft(
      { 'notes/cells.md': CELLS, 'cards/cells.md': '# My cards\n' },
      'notes/cells.md',
      ANSWER,
    );
    const [cloze, basic] = drafted.cards;
    const saved = await acceptCards(store, 'run1', drafted, [
      { id: basic?.id ?? '', back: 'The mitochondria' },
      { id: cloze?.id ?? '' },
    ]);
    expect(saved.receipts.map((receipt) => receipt.operationId)).toEqual(['run1-1']);
    expect(saved.replaced).toEqual([]);
    const text = await readFile(join(root, 'cards/cells.md'), 'utf8');
    const lines = text.split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '# My cards',
      '',
      'What makes most of the ATP?::The mitochondria',
      expect.stringMatching(/^<!--repa:card /),
    ]);
    expect(parseCardComment(lines[3] ?? '')).toEqual({
      id: basic?.id,
      cite: 'notes/cells.md:4',
      version: basic?.version,
      quote: 'Mitochondria make most of the ATP.',
    });
    expect(lines.slice(4, 7)).toEqual([
      '',
      '==ATP== is the energy currency of the cell.',
      expect.any(String),
    ]);
    expect(parseCardComment(lines[6] ?? '')?.id).toBe(cloze?.id);
    // A second save of the run is its next operation; an unknown id saves nothing.
    const second = await acceptCards(
      store,
      'run1',
      drafted,
      [{ id: cloze?.id ?? '' }],
      'cards/other.md',
    );
    expect(second.receipts[0]?.operationId).toBe('run1-2');
    await expect(
      acceptCards(store, 'run1', drafted, [{ id: 'cnotthere00' }]),
    ).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('replaces a redrafted card in its note, keeping its id', async () => {
    const old =
      '<!--repa:card {"id":"cabcdefghij","cite":"notes/cells.md:4","version":"v","quote":"q"}-->';
    const note = `# Cards\n\nWho makes ATP?\n?\nThe mitochondria\n${old}\n\nOther::card\n`;
    const { root, store, drafted } = await draft(
      { 'notes/cells.md': CELLS, 'cards/cells.md': note },
      'notes/cells.md:4',
      'Q: What makes most of the ATP?\nA: Mitochondria\nSource: [notes/cells.md:4]\n\nQ: Another?\nA: Yes\nSource: [notes/cells.md:4]',
      { id: 'cabcdefghij', note: 'cards/cells.md' },
    );
    expect(parseDraftRequest(draftRequestText(drafted.request))).toEqual(drafted.request);
    expect(drafted.cards.map((card) => card.id)).toEqual(['cabcdefghij']);
    expect(drafted.dropped.map((card) => card.reason)).toEqual(['extra_card']);
    await expect(
      acceptCards(store, 'run1', drafted, [{ id: 'cabcdefghij' }], 'cards/else.md'),
    ).rejects.toMatchObject({ code: 'invalid_request' });
    const saved = await acceptCards(store, 'run1', drafted, [{ id: 'cabcdefghij' }]);
    expect(saved.replaced).toEqual(['cabcdefghij']);
    const lines = (await readFile(join(root, 'cards/cells.md'), 'utf8')).split('\n');
    expect(lines.slice(0, 4)).toEqual([
      '# Cards',
      '',
      'What makes most of the ATP?::Mitochondria',
      expect.any(String),
    ]);
    expect(parseCardComment(lines[3] ?? '')).toMatchObject({
      id: 'cabcdefghij',
      cite: 'notes/cells.md:4',
    });
    expect(lines.slice(4)).toEqual(['', 'Other::card', '']);
  });
});
