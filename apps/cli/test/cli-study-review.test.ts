import { citedCard, MITOSIS_CARDS } from '@repa/fixtures';
import { formatInterval, type StudyDueCard, type StudyProgress } from '@repa/protocol';
import { repa, repaJson, writeFiles } from '@repa/test-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';
import { openTerminal, type Terminal } from './terminal-harness.js';

// `repa study` on a real pseudo-terminal (tmux) against a real daemon: hand-written cards in three
// syntaxes in a real note, one citing a passage that changed since the card was written.
const ATP = 'line one\nATP stores energy.\nIt is made in mitochondria.\nline four\n';
const sandbox = useDaemon({
  model: 'repa-offline',
  prepare: (box) =>
    writeFiles(box.space, {
      'notes/bio.md': `# Cells #bio\n\n${citedCard({
        id: 'catpcard001',
        front: 'What is ATP?::The energy currency of the cell',
        document: 'src/atp.md',
        text: ATP,
        from: 2,
        to: 3,
      })}${MITOSIS_CARDS}`,
      // The cited passage, edited since the card was written.
      'src/atp.md': ATP.replace('stores energy', 'stores phosphate'),
    }),
});
const terminals: Terminal[] = [];

afterAll(() => {
  for (const opened of terminals) opened.close();
});

function terminal(args: string[]): Terminal {
  const opened = openTerminal(sandbox, args, { columns: 120, rows: 60 });
  terminals.push(opened);
  return opened;
}

/**
 * The rating line a new card's `next` gives, as `study.due` listed it; Easy only as some days
 * (FSRS fuzzes an interval of days with the time it is computed at).
 */
const choices = (card: StudyDueCard) =>
  new RegExp(
    `^${(['again', 'hard', 'good'] as const)
      .map(
        (name, at) =>
          `${at + 1} ${name[0]?.toUpperCase()}${name.slice(1)} \\(${formatInterval(
            Date.parse(card.next[name].due) - Date.parse(card.fsrs.due),
          )}\\)`,
      )
      .join(' · ')} · 4 Easy \\(\\d+d\\) · s: source · u: undo · q: quit$`,
    'm',
  );

describe('repa study on a terminal', () => {
  it('says off a terminal to use study due and study rate, with a code and a fix', async () => {
    const piped = await repa(sandbox, ['study']);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain(
      'repa study reviews cards on a terminal, and this is not one (or --json was given). (invalid_request)',
    );
    expect(piped.stderr).toContain(
      'Fix: List the due cards with repa study due (--json for data) and rate each with repa study rate CARD again|hard|good|easy.',
    );
  });

  it('reviews three cards of three syntaxes: source changed and its lines, answer, ratings with intervals, undo, summary', async () => {
    const listed = await repaJson<{ cards: StudyDueCard[]; total: number }>(sandbox, [
      'study',
      'due',
    ]);
    const [atp, mitosis, nucleus] = listed.json.cards as [StudyDueCard, StudyDueCard, StudyDueCard];
    expect([atp.kind, mitosis.kind, nucleus.kind]).toEqual(['basic', 'multiline', 'cloze']);

    const study = terminal(['study', '--deck', 'notes']);
    // Card 1: its source changed, shown with the old and new lines before it is rated.
    let screen = await study.waitFor(/^space: show the answer/m);
    expect(screen).toMatch(/^Card 1 of 3 · notes\/bio\.md:3 · new$/m);
    expect(screen).toContain(
      'source changed: src/atp.md:2-3 no longer reads as when the card was written\n' +
        '  was: ATP stores energy.\n       It is made in mitochondria.\n' +
        '  now: ATP stores phosphate.\n       It is made in mitochondria.',
    );
    expect(screen).toMatch(/^Q: What is ATP\?$/m);
    expect(screen).not.toContain('A: The energy');
    study.keys('s'); // The cited lines, numbered, as files.read gives them now.
    screen = await study.waitFor(/^3 │ It is made in mitochondria\.$/m);
    expect(screen).toMatch(/^src\/atp\.md:2-3:\n2 │ ATP stores phosphate\.$/m);
    study.keys('Space');
    screen = await study.waitFor(/^A: The energy currency of the cell$/m);
    expect(screen).toMatch(choices(atp));
    study.keys('3');

    // Card 2 (multi-line), rated Again, taken back with u, then rated Easy.
    screen = await study.waitFor(/^Card 2 of 3 · notes\/bio\.md:6 · new$/m);
    expect(screen).toMatch(/^→ Good: due in 10m$/m);
    expect(screen).toMatch(/^Q: Name the stages of mitosis$/m);
    study.keys('Enter');
    await study.waitFor(/^A: Prophase, metaphase, anaphase, telophase$/m);
    study.keys('1');
    await study.waitFor(/^Card 3 of 3/m);
    study.keys('u');
    screen = await study.waitFor(/^Took back Again on card 2\.\n\nCard 2 of 3/m);
    study.keys('Space');
    screen = await study.waitFor(/Took back[\s\S]*^A: Prophase/m);
    expect(screen).toMatch(choices(mitosis));
    study.keys('4');

    // Card 3 (cloze), then the summary.
    await study.waitFor(/^→ Easy: due in \d+d\n\nCard 3 of 3/m);
    expect(study.screen()).toMatch(/^Q: The \[\.\.\.\] holds the DNA\.$/m);
    study.keys('Space');
    await study.waitFor(/^A: nucleus$/m);
    study.keys('3');
    screen = await study.waitFor(/\[exit 0\]/);
    expect(screen).toMatch(/^Rated 3 of 3 cards: 0 again, 0 hard, 2 good, 1 easy\.$/m);
    expect(screen).toMatch(/^Nothing is due now; the next card is due in (9|10)m\.$/m);

    // The daemon's record: two cards learning, one in review, none new; the undone Again is gone.
    const status = await repaJson<{ sources: StudyProgress[] }>(sandbox, ['study', 'status']);
    const total = (key: 'new' | 'learning' | 'review' | 'due') =>
      status.json.sources.reduce((sum, one) => sum + one[key], 0);
    expect([total('new'), total('learning'), total('review'), total('due')]).toEqual([0, 2, 1, 0]);
  });

  it('ends on q with the summary and what is still due', async () => {
    writeFiles(sandbox.space, {
      'more/geo.md': 'Capital of France::Paris\nRiver of Paris::Seine\n',
    });
    const study = terminal(['study', '--deck', 'more', '--limit', '1']);
    await study.waitFor(/^Card 1 of 1 · more\/geo\.md:1 · new$/m);
    study.keys('q');
    const screen = await study.waitFor(/\[exit 0\]/);
    expect(screen).toMatch(/^Rated 0 of 1 card: 0 again, 0 hard, 0 good, 0 easy\.$/m);
    expect(screen).toMatch(/^Due now: 2 cards \(repa study goes on with them\)\.$/m);
  });
});
