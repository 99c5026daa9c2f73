import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { citedCard, MITOSIS_CARDS } from '@repa/fixtures';
import type { StudyCard, StudyCardState } from '@repa/protocol';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { repa, repaJson, writeFiles } from '@repa/test-kit';
import { type Card, createEmptyCard, fsrs, type Grade, generatorParameters, Rating } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';

// `repa study` end to end on a real daemon: cards written by hand in three syntaxes, ratings
// scheduled exactly as ts-fsrs schedules them, undo, source changed, the Anki export, and a
// daemon killed with SIGKILL in the middle of a stream of ratings.
const ATP = 'line one\nATP stores energy.\nIt is made in mitochondria.\nline four\n';
const sandbox = useDaemon({
  model: 'repa-offline',
  prepare: (box) =>
    writeFiles(box.space, {
      'cards/bio.md': [
        '# Cells #bio',
        '',
        'What is ATP?::The energy currency of the cell',
        'Mitochondria:::Powerhouse',
        MITOSIS_CARDS,
      ].join('\n'),
      'src/atp.md': ATP,
      'cards/cited.md': citedCard({
        id: 'catpcard001',
        front: 'What stores energy?::ATP',
        document: 'src/atp.md',
        text: ATP,
        from: 2,
        to: 3,
      }),
      'cards/stream.md': 'Stream card::rated many times\n',
    }),
});
const LOG = join(sandbox.space, '.repa', 'study', 'reviews.log');
// The defaults of the study.* settings.
const scheduler = fsrs(generatorParameters({ request_retention: 0.9, enable_fuzz: true }));

type Due = { cards: (StudyCard & { next: Record<string, { due: string }> })[]; total: number };

async function due(args: string[] = []): Promise<Due> {
  const listed = await repaJson<Due>(sandbox, ['study', 'due', '--limit', '100', ...args]);
  expect(listed.code, listed.stderr).toBe(0);
  return listed.json;
}

async function rate(card: string, rating: string) {
  const rated = await repaJson<{ card: StudyCard; reviewedAt: string }>(sandbox, [
    'study',
    'rate',
    card,
    rating,
  ]);
  expect(rated.code, rated.stderr).toBe(0);
  return rated.json;
}

/** The wire state of `card`, as the daemon reports ts-fsrs's. */
const wire = (card: Card): Partial<StudyCardState> => ({
  state:
    card.reps === 0 ? 'new' : (['new', 'learning', 'review', 'relearning'] as const)[card.state],
  due: card.due.toISOString(),
  stability: card.stability,
  difficulty: card.difficulty,
  reps: card.reps,
});

describe('repa study', () => {
  it('lists hand-written cards of three syntaxes, schedules ratings as ts-fsrs does, and undoes the last', async () => {
    const listed = await due(['--deck', 'cards']);
    const kinds = listed.cards
      .filter((card) => card.note === 'cards/bio.md')
      .map((card) => card.kind);
    expect(kinds).toEqual(['basic', 'reversed', 'reversed', 'multiline', 'cloze']);
    const atp = listed.cards.find((card) => card.front === 'What is ATP?') as StudyCard;
    expect(atp.fsrs.state).toBe('new');

    // Good, Again, Easy, each at the time the daemon recorded: the same due time as ts-fsrs.
    let expected = createEmptyCard();
    let before = expected;
    for (const [name, rating] of [
      ['good', Rating.Good],
      ['again', Rating.Again],
      ['easy', Rating.Easy],
    ] as [string, Grade][]) {
      const result = await rate(atp.id, name);
      before = expected;
      expected = scheduler.next(expected, new Date(result.reviewedAt), rating).card;
      expect(result.card.fsrs).toMatchObject(wire(expected));
    }
    const undone = await repaJson<{
      undone: { card: string; rating: number };
      fsrs: StudyCardState;
    }>(sandbox, ['study', 'undo']);
    expect(undone.json.undone).toMatchObject({ card: atp.id, rating: Rating.Easy });
    expect(undone.json.fsrs).toMatchObject(wire(before));
    expect(undone.json.fsrs.reps).toBe(2);
  });

  it('flags a card whose cited lines were edited as source changed, in due and in status, with the old and new lines', async () => {
    const cited = () => due().then((list) => list.cards.find((card) => card.id === 'catpcard001'));
    expect((await cited())?.source).toEqual({ status: 'ok', cite: 'src/atp.md:2-3' });
    writeFileSync(
      join(sandbox.space, 'src/atp.md'),
      ATP.replace('stores energy', 'stores phosphate'),
    );
    expect((await cited())?.source).toEqual({
      status: 'changed',
      cite: 'src/atp.md:2-3',
      quote: 'ATP stores energy.\nIt is made in mitochondria.',
      lines: 'ATP stores phosphate.\nIt is made in mitochondria.',
    });
    const status = await repaJson<{ sources: { source: string; sourceChanged: number }[] }>(
      sandbox,
      ['study', 'status', 'src/atp.md'],
    );
    expect(status.json.sources).toMatchObject([
      { source: 'src/atp.md', cards: 1, sourceChanged: 1 },
    ]);
    const shown = await repa(sandbox, ['study', 'status']);
    expect(shown.stdout).toContain(
      'source changed: catpcard001 (cards/cited.md:1) cites src/atp.md:2-3',
    );
    expect(shown.stdout).toContain('  was: ATP stores energy. It is made in mitochondria.');
    expect(shown.stdout).toContain('  now: ATP stores phosphate. It is made in mitochondria.');
  });

  it('exports the cards for Anki twice with the same GUIDs, to a file outside the space', async () => {
    const file = join(sandbox.home, 'deck.txt');
    const guids = () =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('#'))
        .map((line) => line.split('\t')[0]);
    const first = await repa(sandbox, ['study', 'export', '--anki', file]);
    expect(first.code, first.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toMatch(/^#separator:tab\n#html:true\n#guid column:1\n/u);
    const once = guids();
    expect(once).toContain('catpcard001');
    // Five cards in cards/bio.md (a reversed pair is two), one each in cited.md and stream.md.
    expect(once).toHaveLength(7);
    const second = await repa(sandbox, ['study', 'export', '--anki', file]);
    expect(second.stdout).toBe(`wrote ${once.length} cards to ${file}\n`);
    expect(guids()).toEqual(once);
    const nowhere = await repa(sandbox, [
      'study',
      'export',
      '--anki',
      join(sandbox.home, 'no', 'deck.txt'),
    ]);
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain('(io_error)');
    expect(nowhere.stderr).toContain('Fix: Name a file in a folder you can write to: --anki FILE.');
  });

  it('keeps a readable log and the state of the last complete rating when the daemon is killed during a stream of ratings', async () => {
    const id = (await due()).cards.find((card) => card.front === 'Stream card')?.id as string;
    const client = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
    await client.connect();
    let confirmed = 0;
    let ended = false;
    const stream = (async () => {
      try {
        for (;;) {
          await client.request('study.rate', { space: sandbox.space, card: id, rating: 3 });
          confirmed += 1;
        }
      } catch {
        // The daemon is gone.
      }
      ended = true;
    })();
    while (confirmed < 15 && !ended) await new Promise((resolve) => setTimeout(resolve, 5));
    const pid = Number(readFileSync(join(sandbox.appDir, 'run', 'daemon.pid'), 'utf8'));
    process.kill(pid, 'SIGKILL');
    await stream;
    await client.close().catch(() => undefined);

    // Every complete line is intact; at most the last one was cut.
    const lines = readFileSync(LOG, 'utf8').split('\n').slice(1);
    const intact = lines.filter((line) => {
      const json = line.slice(9);
      return line.slice(0, 8) === crc32(json).toString(16).padStart(8, '0');
    });
    expect(lines.length - intact.length).toBeLessThanOrEqual(1);
    const streamed = intact.filter((line) => JSON.parse(line.slice(9)).card === id).length;
    expect(streamed === confirmed || streamed === confirmed + 1).toBe(true);

    const restart = await repaJson(sandbox, ['daemon', 'start', '--model', 'repa-offline']);
    expect(restart.code, restart.stderr).toBe(0);
    const status = await repaJson<{
      sources: { source: string; learning: number; review: number }[];
    }>(sandbox, ['study', 'status', 'cards/stream.md']);
    expect(status.json.sources).toMatchObject([{ source: 'cards/stream.md', cards: 1, new: 0 }]);
    const next = await rate(id, 'good');
    expect(next.card.fsrs.reps).toBe(streamed + 1);
  });
});
