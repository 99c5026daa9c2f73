import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Card, createEmptyCard, type Grade } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import { ContentStore } from '../store/index.js';
import { tempSpaces } from '../test/temp-space.js';
import { formatCardComment } from './card-comment.js';
import { DEFAULT_SCHEDULER_OPTIONS, schedulerOf } from './card-schedule.js';
import { type AnswerEntry, StudyReviewLog } from './review-log.js';
import { StudyDeck } from './study-deck.js';
import { studySummary } from './study-summary.js';

const space = tempSpaces();
const DAY = 86_400_000;
const T0 = new Date('2026-03-01T09:00:00.000Z');
const at = (day: number, minutes = 0) => new Date(T0.getTime() + day * DAY + minutes * 60_000);
const CH3 = 'Chapter 3\nATP stores energy.\nMitochondria make ATP.\nThe end.\n';
const VERSION = createHash('sha256').update(CH3).digest('hex');

function cited(id: string, front: string, line: number, quote: string): string {
  return `${front}\n${formatCardComment({ id, cite: `src/ch3.md:${line}-${line}`, version: VERSION, quote })}\n`;
}

function answer(id: string, day: number, grade: number, help: AnswerEntry['help']): AnswerEntry {
  return {
    kind: 'answer',
    id,
    origin: 'quiz',
    set: 'q1',
    question: `Question ${id}?`,
    cite: 'src/ch3.md:2-2',
    source: 'src/ch3.md',
    version: VERSION,
    answers: ['an answer'],
    grade,
    missing: '',
    help,
    grader: 'passage-words',
    at: at(day, 30).toISOString(),
  };
}

async function week() {
  const root = await space({
    'src/ch3.md': CH3,
    'cards/ch3.md':
      cited('cch3energy1', 'What stores energy?::ATP', 2, 'ATP stores energy.') +
      cited('cch3makers1', 'What makes ATP?::Mitochondria', 3, 'Mitochondria make ATP.') +
      cited('cch3ending1', 'How does chapter 3 end?::The end', 4, 'The end.'),
    'cards/hand.md': 'Untouched card::never rated\n',
  });
  const store = await ContentStore.open({ root });
  const deck = new StudyDeck(store);
  // A week: the first card every day, the second on days 0, 1 and 4 (Again on day 1, then an Easy
  // taken back), the third twice on day 5, and three graded answers, one overridden.
  for (const [day, grade] of [0, 1, 2, 3, 4, 5, 6].map((day) => [day, day === 3 ? 2 : 3])) {
    await deck.rate('cch3energy1', grade as Grade, { now: at(day as number) });
  }
  await deck.rate('cch3makers1', 3, { now: at(0, 5) });
  await deck.rate('cch3makers1', 1, { now: at(1, 5) });
  await deck.rate('cch3makers1', 3, { now: at(4, 5) });
  await deck.rate('cch3makers1', 4, { now: at(4, 6) });
  await deck.undo({ now: at(4, 7) });
  await deck.rate('cch3ending1', 3, { now: at(5) });
  await deck.rate('cch3ending1', 3, { now: at(5, 10) });
  const log = new StudyReviewLog(store.space.fs, store.space.repaDir);
  await log.append(answer('a1', 2, 3, 'none'));
  await log.append(answer('a2', 3, 1, 'hint'));
  await log.append(answer('a3', 5, 2, 'passage'));
  await log.append({ kind: 'override', id: 'o1', of: 'a3', grade: 3, at: at(5, 40).toISOString() });
  await log.close();
  return { root, deck };
}

describe('progress per source', () => {
  it('counts a scripted week per source and version: ratings that stand, answers by help with the override as the grade, recall with ts-fsrs', async () => {
    const { deck } = await week();
    const now = at(6, 120);
    const status = await deck.status({ now, timeZone: 'UTC' });
    const scheduler = schedulerOf(DEFAULT_SCHEDULER_OPTIONS);
    const replay = (ratings: [number, Date][]) =>
      ratings.reduce<Card>(
        (card, [grade, when]) => scheduler.next(card, when, grade as Grade).card,
        createEmptyCard(ratings[0]?.[1] ?? now),
      );
    const energy = replay(
      [0, 1, 2, 3, 4, 5, 6].map((day): [number, Date] => [day === 3 ? 2 : 3, at(day)]),
    );
    const makers = replay([
      [3, at(0, 5)],
      [1, at(1, 5)],
      [3, at(4, 5)],
    ]);
    const ending = replay([
      [3, at(5)],
      [3, at(5, 10)],
    ]);
    const reviewed = [energy, makers, ending];
    const recall =
      reviewed.reduce((sum, card) => sum + scheduler.get_retrievability(card, now, false), 0) / 3;
    const calendar = new Array(14).fill(0);
    for (const card of reviewed) {
      const day = Math.max(
        0,
        Math.floor(card.due.getTime() / DAY) - Math.floor(now.getTime() / DAY),
      );
      if (day < 14) calendar[day] += 1;
    }
    expect(status.sources).toEqual([
      {
        source: 'cards/hand.md',
        version: null,
        cards: 1,
        new: 1,
        learning: 0,
        review: 0,
        due: 1,
        recall: null,
        ratings: { again: 0, hard: 0, good: 0, easy: 0 },
        answers: {
          none: { again: 0, hard: 0, good: 0, easy: 0 },
          hint: { again: 0, hard: 0, good: 0, easy: 0 },
          passage: { again: 0, hard: 0, good: 0, easy: 0 },
        },
        lastStudied: null,
        sourceChanged: 0,
        questionsChanged: 0,
        calendar: new Array(14).fill(0),
      },
      {
        source: 'src/ch3.md',
        version: VERSION,
        cards: 3,
        new: 0,
        learning: reviewed.filter((card) => card.state !== 2).length,
        review: reviewed.filter((card) => card.state === 2).length,
        due: reviewed.filter((card) => card.due <= now).length,
        recall: expect.closeTo(recall, 12),
        ratings: { again: 1, hard: 1, good: 10, easy: 0 },
        answers: {
          none: { again: 0, hard: 0, good: 1, easy: 0 },
          hint: { again: 1, hard: 0, good: 0, easy: 0 },
          passage: { again: 0, hard: 0, good: 1, easy: 0 },
        },
        lastStudied: at(6).toISOString(),
        sourceChanged: 0,
        questionsChanged: 0,
        calendar,
      },
    ]);
    expect(status.calendar.map((day) => day.date).slice(0, 2)).toEqual([
      '2026-03-07',
      '2026-03-08',
    ]);
    expect(status.calendar.map((day) => day.due)).toEqual(calendar);
  });

  it("counts the calendar in the named time zone's days", async () => {
    const { deck } = await week();
    // 11:00 UTC is 01:00 the next day in Kiritimati (UTC+14).
    const now = at(6, 120);
    const local = (date: Date) =>
      date.toLocaleDateString('en-CA', { timeZone: 'Pacific/Kiritimati' });
    const status = await deck.status({ now, timeZone: 'Pacific/Kiritimati' });
    expect(status.calendar[0]?.date).toBe('2026-03-08');
    const cards = (await deck.cards({ now })).filter((card) => !card.isNew);
    const expected = new Array(14).fill(0);
    for (const card of cards) {
      const day = Math.max(0, (Date.parse(local(card.fsrs.due)) - Date.parse(local(now))) / DAY);
      if (day < 14) expected[day] += 1;
    }
    expect(status.calendar.map((day) => day.due)).toEqual(expected);
    await expect(deck.status({ now, timeZone: 'Mars/Olympus' })).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });

  it('marks the cards whose lines changed and every question asked on the old version as source changed', async () => {
    const { deck, root } = await week();
    await writeFile(join(root, 'src/ch3.md'), CH3.replace('Mitochondria make', 'Ribosomes make'));
    const status = await deck.status({ now: at(7), source: 'src/ch3.md' });
    expect(status.sources).toMatchObject([{ cards: 3, sourceChanged: 1, questionsChanged: 3 }]);
    expect(status.changed.map((card) => card.id)).toEqual(['cch3makers1']);
    expect(status.changedQuestions.map((question) => question.id)).toEqual(['a1', 'a2', 'a3']);
    expect(studySummary(status.sources)).toContain(
      '- Source changed since written or asked: src/ch3.md (1 card, 3 questions).',
    );
  });
});
