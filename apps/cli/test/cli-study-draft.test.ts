import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseCardComment } from '@repa/content';
import { CELLS_NOTE as CELLS, makePdf, type OpenAiEndpoint } from '@repa/fixtures';
import { jsonLines, repa, writeFiles } from '@repa/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStudyDaemon } from './commands-sandbox.js';
import { openTerminal } from './terminal-harness.js';

// `repa study draft` through the built CLI and a real daemon: the offline responder and a scripted
// OpenAI-protocol endpoint propose cards; real notes are written, rewound by the draft run.
const { sandbox, endpoint } = useStudyDaemon();
let model: OpenAiEndpoint;

/** The card comments of a note, each parsed, with the card line above each. */
function cardsOf(path: string) {
  const lines = readFileSync(join(sandbox.space, path), 'utf8').split('\n');
  return lines.flatMap((line, index) => {
    if (!line.startsWith('<!--repa:card')) return [];
    return [{ above: lines[index - 1], source: parseCardComment(line) }];
  });
}

beforeAll(() => {
  model = endpoint();
  writeFiles(sandbox.space, {
    'book.pdf': makePdf([
      { lines: ['Week 1', 'Topic 1 of the course.'] },
      { lines: ['Week 2', 'The Krebs cycle releases carbon dioxide.'] },
    ]) as unknown as string,
  });
});

describe('repa study draft', () => {
  it('drafts cloze cards offline, saves them with their card comments into cards/<name>.md, and runs rewind removes them', async () => {
    const drafted = await repa(sandbox, ['study', 'draft', 'notes/cells.md:3-5', '--yes']);
    expect(drafted.code, drafted.stderr).toBe(0);
    expect(drafted.stdout).toContain('[study] 3 cards kept, 0 dropped, from notes/cells.md:3-5');
    const runId = /repa runs rewind (\S+)/.exec(drafted.stdout)?.[1] ?? '';
    expect(drafted.stdout).toMatch(
      /\[saved\] cards\/cells\.md: 3 cards \(receipt \S+-1 [0-9a-f]{12}\)/,
    );
    const cards = cardsOf('cards/cells.md');
    expect(cards.map(({ above, source }) => [above, source?.cite, source?.quote])).toEqual([
      [
        'ATP is the energy ==currency== of the cell.',
        'notes/cells.md:3',
        'ATP is the energy currency of the cell.',
      ],
      [
        '==Mitochondria== make most of the ATP.',
        'notes/cells.md:4',
        'Mitochondria make most of the ATP.',
      ],
      ['==Ribosomes== build proteins.', 'notes/cells.md:5', 'Ribosomes build proteins.'],
    ]);
    // The draft is a run: shown, and rewound with its saves (the note it created goes).
    const shown = await repa(sandbox, ['runs', 'show', runId]);
    expect(shown.stdout).toContain('Draft study cards from the passage `notes/cells.md:3-5`.');
    const rewound = await repa(sandbox, ['runs', 'rewind', runId]);
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(existsSync(join(sandbox.space, 'cards/cells.md'))).toBe(false);
  }, 60_000);

  it('keeps from a scripted model only verified cards, and drops a forged quote and a give-away with reasons', async () => {
    writeFiles(sandbox.space, { 'cards/mine.md': '# My cards\n' });
    model.replies.splice(
      0,
      Infinity,
      {
        kind: 'tools',
        calls: [{ name: 'read', arguments: { path: 'notes/cells.md', offset: 3, limit: 3 } }],
      },
      {
        kind: 'text',
        text: [
          'Q: What makes most of the ATP?',
          'A: Mitochondria',
          'Source: [notes/cells.md:4 "Mitochondria make most of the ATP."]',
          '',
          'Q: What do ribosomes build?',
          'A: Proteins',
          'Source: [notes/cells.md:5 "Ribosomes build sugars"]',
          '',
          'Q: Which currency is ATP the energy currency of?',
          'A: ATP',
          'Source: [notes/cells.md:3 "ATP is the energy currency"]',
        ].join('\n'),
      },
    );
    const drafted = await repa(sandbox, [
      'study',
      'draft',
      'notes/cells.md:3-5',
      '--model',
      'test/plain',
      '--into',
      'cards/mine.md',
      '--yes',
      '--json',
    ]);
    expect(drafted.code, drafted.stderr).toBe(0);
    const lines = jsonLines(drafted.stdout);
    const report = lines.find((line) => line.kind === 'drafted') as {
      cards: { id: string; citation: { status: string } }[];
      dropped: { index: number; reason: string; explanation: string }[];
    };
    expect(report.cards.map((card) => card.citation.status)).toEqual(['verified']);
    expect(report.dropped.map(({ index, reason }) => [index, reason])).toEqual([
      [2, 'forged_quote'],
      [3, 'gives_away'],
    ]);
    expect(report.dropped[0]?.explanation).toContain('"Ribosomes build sugars" are not in');
    expect(lines.find((line) => line.kind === 'saved')).toMatchObject({
      note: 'cards/mine.md',
      cards: [report.cards[0]?.id],
    });
    const text = readFileSync(join(sandbox.space, 'cards/mine.md'), 'utf8');
    expect(text.split('\n').slice(0, 3)).toEqual([
      '# My cards',
      '',
      'What makes most of the ATP?::Mitochondria',
    ]);
    expect(cardsOf('cards/mine.md').map(({ source }) => source?.id)).toEqual([report.cards[0]?.id]);
    // The model was told the card format in the request.
    expect(JSON.stringify(model.requests.at(-2)?.messages)).toContain(
      'Source: [notes/cells.md:LINE',
    );
  });

  it('drafts from a page of a PDF', async () => {
    const drafted = await repa(sandbox, ['study', 'draft', 'book.pdf#p2', '--yes']);
    expect(drafted.code, drafted.stderr).toBe(0);
    expect(cardsOf('cards/book.md').map(({ above, source }) => [above, source?.cite])).toEqual([
      ['==Week== 2', 'book.pdf#p2:1'],
      ['The Krebs cycle ==releases== carbon dioxide.', 'book.pdf#p2:2'],
    ]);
  });

  it('redrafts a card in place, keeping its id', async () => {
    const first = await repa(sandbox, ['study', 'draft', 'notes/cells.md:4', '--yes']);
    expect(first.code, first.stderr).toBe(0);
    const [card] = cardsOf('cards/cells.md');
    const id = card?.source?.id ?? '';
    writeFiles(sandbox.space, {
      'notes/cells.md': CELLS.replace('Mitochondria make most', 'Mitochondria produce most'),
    });
    const again = await repa(sandbox, ['study', 'draft', '--card', id, 'cards/cells.md', '--yes']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('1 replaced');
    expect(cardsOf('cards/cells.md').map(({ above, source }) => [above, source?.id])).toEqual([
      ['==Mitochondria== produce most of the ATP.', id],
    ]);
  });

  it('asks accept, edit or drop for each card on a terminal and saves what was chosen, as edited', async () => {
    rmSync(join(sandbox.space, 'cards'), { recursive: true, force: true });
    writeFiles(sandbox.space, { 'notes/cells.md': CELLS });
    const screen = openTerminal(sandbox, [
      'study',
      'draft',
      '--space',
      sandbox.space,
      'notes/cells.md:3-5',
    ]);
    try {
      await screen.waitFor(/Card 1 of 3[\s\S]*\[A\/e\/d\]$/);
      screen.keys('Enter');
      await screen.waitFor(/Card 2 of 3[\s\S]*\[A\/e\/d\]$/);
      screen.keys('e', 'Enter');
      await screen.waitFor(/Text \(==hidden== words\): ==Mitochondria== make most of the ATP\.$/);
      screen.keys('C-u', 'Most ATP is made by ==mitochondria==.', 'Enter');
      await screen.waitFor(/Card 3 of 3[\s\S]*\[A\/e\/d\]$/);
      screen.keys('d', 'Enter');
      const done = await screen.waitFor(/\[exit \d+\]/);
      expect(done).toContain('[saved] cards/cells.md: 2 cards');
      expect(done).toContain('[exit 0]');
    } finally {
      screen.close();
    }
    expect(cardsOf('cards/cells.md').map(({ above, source }) => [above, source?.cite])).toEqual([
      ['ATP is the energy ==currency== of the cell.', 'notes/cells.md:3'],
      ['Most ATP is made by ==mitochondria==.', 'notes/cells.md:4'],
    ]);
  }, 90_000);

  it('refuses without a terminal and without --yes, before drafting anything', async () => {
    const refused = await repa(sandbox, ['study', 'draft', 'notes/cells.md']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('needs --yes');
    expect(refused.stderr).toContain('repa study draft notes/cells.md --yes');
  });
});
