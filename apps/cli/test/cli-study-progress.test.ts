import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { citedCard } from '@repa/fixtures';
import type { StudyCard, StudyProgress } from '@repa/protocol';
import { createRepaClient, daemonPaths } from '@repa/protocol/node';
import { appendStudyLog, repa, repaJson, studyLog, writeFiles } from '@repa/test-kit';
import {
  type Card,
  createEmptyCard,
  fsrs,
  GenSeedStrategyWithCardId,
  type Grade,
  generatorParameters,
  StrategyMode,
} from 'ts-fsrs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useDaemon } from './commands-sandbox.js';

// `repa study status` on a real daemon after a scripted week of ratings (each at a fixed time)
// and graded answers: every number per source is recomputed here from the study log with ts-fsrs.
const sandbox = useDaemon({
  model: 'repa-offline',
  prepare: (box) =>
    writeFiles(box.space, {
      'src/ch3.md': CH3,
      'src/ch4.md': CH4,
      'cards/ch3.md':
        citedCard(ch3('cch3energy1', 'What stores energy?::ATP', 2)) +
        citedCard(ch3('cch3makers1', 'What makes ATP?::Mitochondria', 3)),
      'cards/ch4.md': citedCard({
        id: 'cch4mitosi1',
        front: 'How do cells divide?::Mitosis',
        document: 'src/ch4.md',
        text: CH4,
        from: 2,
      }),
      'cards/hand.md': 'Hand card::written by hand\n',
    }),
});
let handId = '';
const DAY = 86_400_000;
const ZONE = 'Asia/Tokyo';
// The defaults of the study.* settings.
// Repa seeds the fuzz by the card's id and review count (ts-fsrs's card-id seed strategy, R102).
const scheduler = fsrs(
  generatorParameters({ request_retention: 0.9, enable_fuzz: true }),
).useStrategy(StrategyMode.SEED, GenSeedStrategyWithCardId('repaCardId'));
const CH3 = 'Chapter 3\nATP stores energy.\nMitochondria make ATP.\nThe end.\n';
const CH4 = 'Chapter 4\nCells divide by mitosis.\n';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
// The week starts eight days ago at 09:00 UTC, so every rating is in the past.
const T0 = Math.floor(Date.now() / DAY) * DAY - 8 * DAY + 9 * 3_600_000;
const at = (day: number, minutes = 0) => new Date(T0 + day * DAY + minutes * 60_000).toISOString();

/** A card citing line `from` of `src/ch3.md`. */
const ch3 = (id: string, front: string, from: number) =>
  ({ id, front, document: 'src/ch3.md', text: CH3, from }) as const;

/** A study log entry as {@link fromLog} reads it: each kind has some of these members. */
interface LogEntry {
  kind: string;
  id: string;
  at: string;
  undoes: string;
  card: string;
  rating: number;
  source: string;
  of: string;
  help: string;
  grade: number;
}

function answer(id: string, day: number, grade: number, help: string) {
  return {
    kind: 'answer',
    id,
    origin: 'quiz',
    set: 'week1',
    question: `Question ${id}: what stores energy?`,
    cite: 'src/ch3.md:2-2',
    source: 'src/ch3.md',
    version: sha(CH3),
    answers: ['ATP'],
    grade,
    missing: '',
    help,
    grader: 'passage-words',
    at: at(day, 30),
  };
}

beforeAll(async () => {
  const client = createRepaClient({ socketPath: daemonPaths(sandbox.appDir).socketPath });
  await client.connect();
  const hand = (await client.request('study.due', { space: sandbox.space })).cards.find(
    (card) => card.note === 'cards/hand.md',
  ) as StudyCard;
  handId = hand.id;
  const rate = (card: string, rating: number, now: string) =>
    client.request('study.rate', { space: sandbox.space, card, rating, now });
  // The week: the energy card every day (Hard on day 3), the makers card on days 0, 1 (Again) and 4
  // with an Easy taken back, the hand card on days 2 and 5; ch4's card never.
  for (let day = 0; day < 7; day += 1) await rate('cch3energy1', day === 3 ? 2 : 3, at(day));
  await rate('cch3makers1', 3, at(0, 5));
  await rate('cch3makers1', 1, at(1, 5));
  await rate('cch3makers1', 3, at(4, 5));
  await rate('cch3makers1', 4, at(4, 6));
  await client.request('study.undo', { space: sandbox.space });
  await rate(hand.id, 3, at(2, 10));
  await rate(hand.id, 3, at(5, 10));
  await client.close();
  appendStudyLog(sandbox, answer('a1', 2, 3, 'none'));
  appendStudyLog(sandbox, answer('a2', 3, 1, 'hint'));
  appendStudyLog(sandbox, answer('a3', 5, 2, 'passage'));
  appendStudyLog(sandbox, { kind: 'override', id: 'o1', of: 'a3', grade: 3, at: at(5, 40) });
});

type Status = {
  at: string;
  sources: StudyProgress[];
  calendar: { date: string; due: number }[];
  changed: StudyCard[];
  changedQuestions: { id: string }[];
};

const status = async (args: string[] = []) => {
  const shown = await repaJson<Status>(sandbox, ['study', 'status', ...args], {
    env: { TZ: ZONE },
  });
  expect(shown.code, shown.stderr).toBe(0);
  return shown.json;
};

/** Each source's numbers recomputed from the log's lines alone with ts-fsrs, at `now`. */
function fromLog(now: Date, sourceOf: Record<string, string>) {
  const entries = studyLog<LogEntry>(sandbox);
  const undone = new Set(entries.filter((one) => one.kind === 'undo').map((one) => one.undoes));
  const cards = new Map<string, { card: Card; ratings: number[]; last: number }>();
  for (const entry of entries) {
    if (entry.kind !== 'rate' || undone.has(entry.id)) continue;
    const when = new Date(entry.at);
    const known = cards.get(entry.card) ?? { card: createEmptyCard(when), ratings: [], last: 0 };
    const seeded = { ...known.card, repaCardId: entry.card } as Card;
    known.card = scheduler.next(seeded, when, entry.rating as Grade).card;
    known.ratings.push(entry.rating);
    known.last = when.getTime();
    cards.set(entry.card, known);
  }
  const overrides = entries.filter((one) => one.kind === 'override');
  const localDay = (date: Date) => Date.parse(date.toLocaleDateString('en-CA', { timeZone: ZONE }));
  const groups = new Map<
    string,
    {
      cards: number;
      new: number;
      due: number;
      recall: number[];
      ratings: number[];
      last: number;
      calendar: number[];
      answers: Record<string, number[]>;
    }
  >();
  const group = (source: string) => {
    const known = groups.get(source) ?? {
      cards: 0,
      new: 0,
      due: 0,
      recall: [],
      ratings: [],
      last: 0,
      calendar: new Array<number>(14).fill(0),
      answers: { none: [], hint: [], passage: [] },
    };
    groups.set(source, known);
    return known;
  };
  for (const [id, source] of Object.entries(sourceOf)) {
    const one = group(source);
    one.cards += 1;
    const rated = cards.get(id);
    if (rated === undefined) {
      // A new card is due at once and not on the calendar.
      one.new += 1;
      one.due += 1;
      continue;
    }
    one.ratings.push(...rated.ratings);
    one.last = Math.max(one.last, rated.last);
    one.recall.push(scheduler.get_retrievability(rated.card, now, false));
    if (rated.card.due <= now) one.due += 1;
    const day = Math.max(0, (localDay(rated.card.due) - localDay(now)) / DAY);
    if (day < 14) one.calendar[day] = (one.calendar[day] ?? 0) + 1;
  }
  for (const entry of entries.filter((one) => one.kind === 'answer')) {
    const one = group(entry.source);
    const override = overrides.findLast((other) => other.of === entry.id);
    one.answers[entry.help]?.push(override?.grade ?? entry.grade);
    one.last = Math.max(one.last, Date.parse(entry.at), Date.parse(override?.at ?? entry.at));
  }
  const counts = (grades: number[]) =>
    Object.fromEntries(
      ['again', 'hard', 'good', 'easy'].map((name, at) => [
        name,
        grades.filter((grade) => grade === at + 1).length,
      ]),
    );
  return [...groups].map(([source, one]) => ({
    source,
    cards: one.cards,
    new: one.new,
    due: one.due,
    recall:
      one.recall.length === 0
        ? null
        : expect.closeTo(one.recall.reduce((a, b) => a + b, 0) / one.recall.length, 12),
    ratings: counts(one.ratings),
    answers: {
      none: counts(one.answers.none ?? []),
      hint: counts(one.answers.hint ?? []),
      passage: counts(one.answers.passage ?? []),
    },
    lastStudied: one.last === 0 ? null : new Date(one.last).toISOString(),
    calendar: one.calendar,
  }));
}

describe('repa study status after a scripted week', () => {
  it('gives per source the numbers recomputed from the study log with ts-fsrs, one JSON line', async () => {
    const shown = await repa(sandbox, ['study', 'status', '--json'], { env: { TZ: ZONE } });
    expect(shown.stdout.trimEnd().split('\n')).toHaveLength(1);
    const json = await status();
    const now = new Date(json.at);
    const expected = fromLog(now, {
      cch3energy1: 'src/ch3.md',
      cch3makers1: 'src/ch3.md',
      cch4mitosi1: 'src/ch4.md',
      [handId]: 'cards/hand.md',
    });
    for (const one of expected) {
      expect(json.sources.find((shown) => shown.source === one.source)).toMatchObject(one);
    }
    expect(json.sources.map((one) => one.source)).toEqual([
      'cards/hand.md',
      'src/ch3.md',
      'src/ch4.md',
    ]);
    expect(json.calendar.reduce((sum, day) => sum + day.due, 0)).toBeGreaterThan(0);
    expect(json.calendar[0]?.date).toBe(now.toLocaleDateString('en-CA', { timeZone: ZONE }));
    expect(json.calendar.map((day) => day.due)).toEqual(
      expected.reduce(
        (sum, one) => sum.map((n, at) => n + (one.calendar[at] ?? 0)),
        new Array(14).fill(0),
      ),
    );
  });

  it('shows a readable table and marks the cards and questions of an edited source as source changed', async () => {
    const table = await repa(sandbox, ['study', 'status'], { env: { TZ: ZONE, COLUMNS: '160' } });
    expect(table.stdout).toMatch(
      /^SOURCE\s+VERSION\s+NEW\s+LEARNING\s+REVIEW\s+DUE\s+RECALL\s+STUDIED\s+CHANGED$/mu,
    );
    expect(table.stdout).toMatch(/^src\/ch4\.md\s+[0-9a-f]{8}\s+1\s+0\s+0\s+1\s+never\s*$/mu);
    expect(table.stdout).toContain('quiz answers by help given:');
    expect(table.stdout).toMatch(/^src\/ch3\.md\s+passage\s+0\s+0\s+1\s+0$/mu);
    expect(table.stdout).toMatch(/^reviews due, next 14 days:\n {2}\d\d-\d\d: \d+ {2}/mu);

    writeFileSync(
      join(sandbox.space, 'src/ch3.md'),
      CH3.replace('Mitochondria make', 'Ribosomes make'),
    );
    const json = await status(['src/ch3.md']);
    expect(json.sources).toMatchObject([
      { source: 'src/ch3.md', version: sha(CH3), cards: 2, sourceChanged: 1, questionsChanged: 3 },
    ]);
    expect(json.changed.map((card) => card.id)).toEqual(['cch3makers1']);
    expect(json.changedQuestions.map((question) => question.id)).toEqual(['a1', 'a2', 'a3']);
    const shown = await repa(sandbox, ['study', 'status', 'src/ch3.md'], { env: { TZ: ZONE } });
    expect(shown.stdout).toMatch(/1 card, 3 questions/u);
    expect(shown.stdout).toContain(
      `source changed: question "Question a1: what stores energy?" was asked on src/ch3.md:2-2 as it read then (version ${sha(CH3).slice(0, 8)})`,
    );
  });
});
