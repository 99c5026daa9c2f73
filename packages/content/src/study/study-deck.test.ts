import { createHash } from 'node:crypto';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createEmptyCard, type Grade, Rating } from 'ts-fsrs';
import { afterEach, describe, expect, it } from 'vitest';
import { ContentStore } from '../store/index.js';
import { removeAll, tempSpace } from '../test/temp-space.js';
import { formatCardComment } from './card-comment.js';
import { DEFAULT_SCHEDULER_OPTIONS, forScheduler, schedulerOf } from './card-schedule.js';
import { type AnswerEntry, StudyReviewLog } from './review-log.js';
import { StudyDeck } from './study-deck.js';

const dirs: string[] = [];
afterEach(() => removeAll(dirs));
const LOG = '.repa/study/reviews.log';
const T0 = new Date('2026-03-01T09:00:00.000Z');

async function open(files: Record<string, string>) {
  const root = await tempSpace(files);
  dirs.push(root);
  const store = await ContentStore.open({ root });
  return { root, store, deck: new StudyDeck(store) };
}

const NOTES = {
  'bio/cells.md': 'What is ATP?::The energy currency\n\nThe ==nucleus== holds DNA.\n',
  'chem.md': 'Water\n?\nH2O\n',
};

describe('the study deck', () => {
  it("moves a rated card's due time exactly as ts-fsrs computes, and an undo restores the state before", async () => {
    const { deck, store } = await open(NOTES);
    const due = await deck.due({ now: T0 });
    expect(due.total).toBe(3);
    const id = due.cards.find((card) => card.front === 'What is ATP?')?.id as string;
    const scheduler = schedulerOf(DEFAULT_SCHEDULER_OPTIONS);
    let expected = createEmptyCard(T0);
    let at = T0;
    for (const rating of [Rating.Good, Rating.Again, Rating.Easy] as Grade[]) {
      const before = expected;
      expected = scheduler.next(expected, at, rating).card;
      const { card } = await deck.rate(id, rating, { now: at });
      expect(card.fsrs.due.toISOString()).toBe(expected.due.toISOString());
      expect(card.fsrs.stability).toBe(expected.stability);
      if (rating === Rating.Easy) {
        const undone = await deck.undo({ now: at });
        expect(undone?.undone.card).toBe(id);
        expect(undone?.fsrs?.due.toISOString()).toBe(before.due.toISOString());
        expected = before;
      }
      at = expected.due;
    }
    // A deck reading the log from the start derives the same state.
    const again = (await new StudyDeck(store).cards({ now: at })).find((card) => card.id === id);
    expect(again?.fsrs.due.toISOString()).toBe(expected.due.toISOString());
    expect(again?.fsrs.reps).toBe(2);
  });

  it('offers what each rating would do, as ts-fsrs repeat computes it', async () => {
    const { deck } = await open(NOTES);
    const [first] = (await deck.due({ now: T0, limit: 1 })).cards;
    const preview = schedulerOf(DEFAULT_SCHEDULER_OPTIONS).repeat(
      forScheduler(createEmptyCard(T0), first?.id as string),
      T0,
    );
    for (const grade of [1, 2, 3, 4] as Grade[]) {
      expect(first?.next[grade].due.toISOString()).toBe(preview[grade].card.due.toISOString());
    }
  });

  it('gives each rating the interval the due list showed for it, fuzz and all, when rated a minute later', async () => {
    const { deck } = await open(NOTES);
    let at = T0;
    const ids = (await deck.due({ now: at })).cards.map((card) => card.id);
    for (let round = 0; round < 3; round += 1) {
      for (const id of ids) await deck.rate(id, Rating.Easy, { now: at });
      const cards = await deck.cards({ now: at });
      at = new Date(Math.max(...cards.map((card) => card.fsrs.due.getTime())));
    }
    const shown = (await deck.due({ now: at })).cards;
    expect(shown.map((card) => card.id).sort()).toEqual([...ids].sort());
    const later = new Date(at.getTime() + 60_000);
    for (const card of shown) {
      expect(card.next[Rating.Easy].scheduledDays).toBeGreaterThan(20);
      const rated = await deck.rate(card.id, Rating.Easy, { now: later });
      expect(rated.card.fsrs.scheduled_days).toBe(card.next[Rating.Easy].scheduledDays);
    }
  });

  it('appends to the log and never rewrites it; a torn last line is ignored, a torn middle line skipped', async () => {
    const { deck, root, store } = await open(NOTES);
    const [card] = (await deck.due({ now: T0 })).cards;
    const id = card?.id as string;
    await deck.rate(id, Rating.Good, { now: T0 });
    const first = await readFile(join(root, LOG), 'utf8');
    await deck.undo({ now: T0 });
    await deck.rate(id, Rating.Hard, { now: T0 });
    const after = await readFile(join(root, LOG), 'utf8');
    expect(after.startsWith(first)).toBe(true);
    expect(after.split('\n').length).toBe(4);
    // A write cut short by a kill: half a line at the end.
    await appendFile(join(root, LOG), '\n1a2b3c4d {"kind":"rate","id":"rx","card":');
    const reread = new StudyDeck(store);
    const state = (await reread.cards({ now: T0 })).find((one) => one.id === id);
    expect(state?.fsrs.reps).toBe(1);
    expect(reread.record.damaged).toBe(0);
    // The next rating follows the torn line, which then counts as damaged and stays skipped.
    await reread.rate(id, Rating.Good, { now: new Date(T0.getTime() + 60_000) });
    const third = new StudyDeck(store);
    expect((await third.cards({ now: T0 })).find((one) => one.id === id)?.fsrs.reps).toBe(2);
    expect(third.record).toMatchObject({ reviews: 3, damaged: 1, rebuilt: 0 });
  });

  it("keeps a graded answer and its override in the same log, read back whole, without touching a card's schedule", async () => {
    const { deck, store } = await open(NOTES);
    const [card] = (await deck.due({ now: T0 })).cards;
    await deck.rate(card?.id as string, Rating.Good, { now: T0 });
    const log = new StudyReviewLog(store.space.fs, store.space.repaDir);
    const answer: AnswerEntry = {
      kind: 'answer',
      id: 'a1',
      origin: 'quiz',
      set: 'q1',
      question: 'What does ATP carry?',
      cite: 'bio/cells.md:1-1',
      source: 'bio/cells.md',
      version: 'f'.repeat(64),
      answers: ['sugar', 'energy'],
      grade: 2,
      missing: 'The energy currency',
      help: 'hint',
      grader: 'passage-words',
      at: T0.toISOString(),
    };
    await log.append(answer);
    await log.append({ kind: 'override', id: 'o1', of: 'a1', grade: 3, at: T0.toISOString() });
    await expect(log.append({ ...answer, grade: 5 })).rejects.toThrow();
    await log.close();
    const read = await log.read(0);
    expect(read.entries.slice(1)).toEqual([
      answer,
      { kind: 'override', id: 'o1', of: 'a1', grade: 3, at: T0.toISOString() },
    ]);
    const reread = new StudyDeck(store);
    const state = (await reread.cards({ now: T0 })).find((one) => one.id === card?.id);
    expect(state?.fsrs.reps).toBe(1);
    expect(reread.record).toMatchObject({ reviews: 1, damaged: 0 });
  });

  it('appends to the log that is there now when the one it appended to was removed', async () => {
    const { deck, root, store } = await open(NOTES);
    const [card] = (await deck.due({ now: T0 })).cards;
    const id = card?.id as string;
    await deck.rate(id, Rating.Good, { now: T0 });
    await rm(join(root, LOG));
    await deck.rate(id, Rating.Good, { now: new Date(T0.getTime() + 60_000) });
    const reread = new StudyDeck(store);
    expect((await reread.cards({ now: T0 })).find((one) => one.id === id)?.fsrs.reps).toBe(1);
    expect(reread.record.reviews).toBe(1);
  });

  it('rebuilds a card with ts-fsrs when the state a line caches does not follow from the one before', async () => {
    const { deck, root, store } = await open(NOTES);
    const [card] = (await deck.due({ now: T0 })).cards;
    const id = card?.id as string;
    await deck.rate(id, Rating.Good, { now: T0 });
    const later = new Date(T0.getTime() + 3_600_000);
    await deck.rate(id, Rating.Good, { now: later });
    // Hand-edit the last line: its cached state says 7 reviews, with a valid checksum.
    const lines = (await readFile(join(root, LOG), 'utf8')).split('\n');
    const entry = JSON.parse((lines.at(-1) as string).slice(9));
    entry.after.reps = 7;
    entry.after.due = '2099-01-01T00:00:00.000Z';
    const json = JSON.stringify(entry);
    const { crc32 } = await import('node:zlib');
    lines[lines.length - 1] = `${crc32(json).toString(16).padStart(8, '0')} ${json}`;
    await writeFile(join(root, LOG), lines.join('\n'));
    const rebuilt = new StudyDeck(store);
    const state = (await rebuilt.cards({ now: later })).find((one) => one.id === id);
    const scheduler = schedulerOf(DEFAULT_SCHEDULER_OPTIONS);
    const expected = scheduler.next(
      scheduler.next(createEmptyCard(T0), T0, Rating.Good).card,
      later,
      Rating.Good,
    ).card;
    expect(state?.fsrs.due.toISOString()).toBe(expected.due.toISOString());
    expect(rebuilt.record.rebuilt).toBe(1);
  });

  it('flags a card whose cited lines changed as source changed, with the old and new lines', async () => {
    const source = 'line one\nATP stores energy.\nIt is made in mitochondria.\nline four\n';
    const version = createHash('sha256').update(source).digest('hex');
    const comment = formatCardComment({
      id: 'catpcard001',
      cite: 'src/atp.md:2-3',
      version,
      quote: 'ATP stores energy.\nIt is made in mitochondria.',
    });
    const { deck, root } = await open({
      'src/atp.md': source,
      'cards.md': `What stores energy?::ATP\n${comment}\n`,
    });
    const statusOf = async () =>
      (await deck.cards({ now: T0 })).find((one) => one.id === 'catpcard001')?.source;
    expect(await statusOf()).toEqual({ status: 'ok', cite: 'src/atp.md:2-3' });
    // Another line changes: a new version, the cited lines as they were.
    await writeFile(join(root, 'src/atp.md'), source.replace('line four', 'line 4'));
    expect((await statusOf())?.status).toBe('ok');
    await writeFile(join(root, 'src/atp.md'), source.replace('stores energy', 'stores phosphate'));
    expect(await statusOf()).toEqual({
      status: 'changed',
      cite: 'src/atp.md:2-3',
      quote: 'ATP stores energy.\nIt is made in mitochondria.',
      lines: 'ATP stores phosphate.\nIt is made in mitochondria.',
    });
    const { sources, changed } = await deck.status({ now: T0, source: 'src/atp.md' });
    const [progress] = sources;
    expect(changed.map((one) => one.id)).toEqual(['catpcard001']);
    expect(progress).toMatchObject({
      source: 'src/atp.md',
      version,
      cards: 1,
      new: 1,
      sourceChanged: 1,
    });
    await rm(join(root, 'src/atp.md'));
    expect(await statusOf()).toMatchObject({ status: 'changed', lines: null });
  });

  it('exports Anki text with the card ids as GUIDs, the same in a second export', async () => {
    const { deck } = await open(NOTES);
    const first = await deck.exportAnki();
    const second = await deck.exportAnki();
    const guids = (text: string) =>
      text
        .split('\n')
        .filter((line) => line !== '' && !line.startsWith('#'))
        .map((line) => line.split('\t')[0]);
    expect(first.text.split('\n').slice(0, 3)).toEqual([
      '#separator:tab',
      '#html:true',
      '#guid column:1',
    ]);
    expect(guids(first.text)).toHaveLength(3);
    expect(guids(second.text)).toEqual(guids(first.text));
    const cards = await deck.cards();
    expect(guids(first.text)).toEqual(cards.map((card) => card.id));
    expect(first.text).toContain('Repa::bio\tWhat is ATP?\tThe energy currency');
  });

  it('lists only the cards of a folder or a tag', async () => {
    const { deck } = await open({ ...NOTES, 'tagged.md': '#exam\n\nQ::A\n' });
    expect((await deck.cards({ deck: 'bio' })).map((card) => card.note)).toEqual([
      'bio/cells.md',
      'bio/cells.md',
    ]);
    expect((await deck.cards({ deck: '#exam' })).map((card) => card.front)).toEqual(['Q']);
  });
});
