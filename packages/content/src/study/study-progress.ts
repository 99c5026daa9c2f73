import {
  RATING_NAMES,
  RepaError,
  STUDY_CALENDAR_DAYS,
  type StudyCalendarDay,
  type StudyChangedQuestion,
  type StudyGradeCounts,
  type StudyProgress,
} from '@repa/protocol';
import type { Card, FSRS } from 'ts-fsrs';
import { parseCitations } from '../citations/index.js';
import type { SourceStatus } from './deck-notes.js';
import type { AnswerEntry, RateEntry, ReviewEntry } from './review-log.js';

/** An answer with the grade that counts: the learner's latest override, else the one given. */
interface CountedAnswer {
  entry: AnswerEntry;
  grade: number;
  /** Its latest time: the answer's, or its latest override's. */
  last: number;
}

/** The graded answers read from the study log, each with the grade that counts. */
export class StudyAnswers {
  private readonly byId = new Map<string, CountedAnswer>();

  /** Applies one log entry (ratings and undos are not answers). */
  apply(entry: ReviewEntry): void {
    if (entry.kind === 'answer') {
      this.byId.set(entry.id, { entry, grade: entry.grade, last: Date.parse(entry.at) });
    } else if (entry.kind === 'override') {
      const answer = this.byId.get(entry.of);
      if (answer === undefined) return;
      answer.grade = entry.grade;
      answer.last = Math.max(answer.last, Date.parse(entry.at));
    }
  }

  /** The answer entry with `id`, as the log recorded it (what an override names). */
  get(id: string): AnswerEntry | undefined {
    return this.byId.get(id)?.entry;
  }

  /** The answers, in log order. */
  all(): IterableIterator<CountedAnswer> {
    return this.byId.values();
  }
}

/** A card as its progress counts it. */
export interface ProgressCard {
  note: string;
  isNew: boolean;
  fsrs: Card;
  source: SourceStatus;
  /** The version its Repa comment records (null: written by hand). */
  version: string | null;
  /** Its ratings that stand. */
  ratings: readonly RateEntry[];
}

/** What {@link progressOf} counts. */
export interface ProgressInput<C extends ProgressCard> {
  cards: readonly C[];
  answers: Iterable<CountedAnswer>;
  /** Answers count only for sources that have cards here (a deck was named). */
  answersOfCardSources: boolean;
  /** The version of a document now (the deck's source check). */
  versionNow: (document: string) => Promise<string | null>;
  scheduler: FSRS;
  now: Date;
  /** The IANA zone whose days the calendar counts (default: this process's). */
  timeZone?: string | undefined;
  /** Only this source. */
  source?: string | undefined;
}

/** Progress per source and version, the calendar of all of them, and what changed. */
export interface ProgressOf<C> {
  sources: StudyProgress[];
  calendar: StudyCalendarDay[];
  /** The cards whose source changed. */
  changed: C[];
  changedQuestions: StudyChangedQuestion[];
}

const DAY_MS = 86_400_000;
const noGrades = (): StudyGradeCounts => ({ again: 0, hard: 0, good: 0, easy: 0 });
/** Counts one more grade (1 Again … 4 Easy) in `counts`. */
const countGrade = (counts: StudyGradeCounts, grade: number) => {
  const name = RATING_NAMES[grade - 1] as (typeof RATING_NAMES)[number];
  counts[name] += 1;
};

/** The number of the local day (days since 1970-01-01) of a time, in `timeZone`. */
function localDays(timeZone: string | undefined): (date: Date) => number {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
    });
  } catch {
    throw new RepaError('invalid_request', `${timeZone} is not a time zone this daemon knows.`, {
      fix: "Name an IANA time zone such as Europe/Berlin, or leave it out for the daemon's own.",
    });
  }
  return (date) => {
    const parts = format.formatToParts(date);
    const part = (type: string) => Number(parts.find((one) => one.type === type)?.value);
    return Date.UTC(part('year'), part('month') - 1, part('day')) / DAY_MS;
  };
}

/** The document a card's progress counts under: the one it cites, else its note. */
function sourceOf(card: ProgressCard): string {
  if (card.source.status === 'none') return card.note;
  return parseCitations(`[${card.source.cite}]`)[0]?.document ?? card.note;
}

/**
 * Progress per source document and version (spec R112): the cards' states and ratings from the
 * review log, recall now with ts-fsrs `get_retrievability`, the graded answers by the help given,
 * the latest study, what changed since (cards by the deck's source check, questions by their
 * document's version now) and the reviews due on each of the next 14 local days.
 */
export async function progressOf<C extends ProgressCard>(
  input: ProgressInput<C>,
): Promise<ProgressOf<C>> {
  const { now, scheduler } = input;
  const dayOf = localDays(input.timeZone);
  const today = dayOf(now);
  const groups = new Map<string, StudyProgress & { recallSum: number; last: number }>();
  const groupOf = (source: string, version: string | null, create: boolean) => {
    const key = `${source}\n${version}`;
    let group = groups.get(key);
    if (group === undefined && create) {
      group = {
        source,
        version,
        cards: 0,
        new: 0,
        learning: 0,
        review: 0,
        due: 0,
        recall: null,
        ratings: noGrades(),
        answers: { none: noGrades(), hint: noGrades(), passage: noGrades() },
        lastStudied: null,
        sourceChanged: 0,
        questionsChanged: 0,
        calendar: new Array<number>(STUDY_CALENDAR_DAYS).fill(0),
        recallSum: 0,
        last: -1,
      };
      groups.set(key, group);
    }
    return group;
  };
  const changed: C[] = [];
  for (const card of input.cards) {
    const source = sourceOf(card);
    if (input.source !== undefined && source !== input.source) continue;
    const group = groupOf(source, card.version, true) as NonNullable<ReturnType<typeof groupOf>>;
    group.cards += 1;
    if (card.isNew) group.new += 1;
    else if (card.fsrs.state === 2) group.review += 1;
    else group.learning += 1;
    if (card.fsrs.due <= now) group.due += 1;
    if (card.source.status === 'changed') {
      group.sourceChanged += 1;
      changed.push(card);
    }
    for (const rating of card.ratings) {
      countGrade(group.ratings, rating.rating);
      group.last = Math.max(group.last, Date.parse(rating.at));
    }
    if (card.isNew) continue;
    group.recallSum += scheduler.get_retrievability(card.fsrs, now, false);
    const day = Math.max(0, dayOf(card.fsrs.due) - today);
    if (day < STUDY_CALENDAR_DAYS) group.calendar[day] = (group.calendar[day] ?? 0) + 1;
  }
  const changedQuestions: StudyChangedQuestion[] = [];
  for (const { entry, grade, last } of input.answers) {
    if (input.source !== undefined && entry.source !== input.source) continue;
    const group = groupOf(entry.source, entry.version, !input.answersOfCardSources);
    if (group === undefined) continue;
    countGrade(group.answers[entry.help], grade);
    group.last = Math.max(group.last, last);
    // `versionNow` looks each document up once per status (the deck's source check).
    if ((await input.versionNow(entry.source)) !== entry.version) {
      group.questionsChanged += 1;
      const { id, question, cite, source, version, at } = entry;
      changedQuestions.push({ id, question, cite, source, version, at });
    }
  }
  const sources = [...groups.values()]
    .sort((a, b) =>
      a.source === b.source
        ? (a.version ?? '').localeCompare(b.version ?? '')
        : a.source < b.source
          ? -1
          : 1,
    )
    .map(({ recallSum, last, ...group }) => {
      const reviewed = group.cards - group.new;
      return {
        ...group,
        recall: reviewed === 0 ? null : recallSum / reviewed,
        lastStudied: last < 0 ? null : new Date(last).toISOString(),
      };
    });
  const calendar = Array.from({ length: STUDY_CALENDAR_DAYS }, (_, day) => ({
    date: new Date((today + day) * DAY_MS).toISOString().slice(0, 10),
    due: sources.reduce((sum, one) => sum + (one.calendar[day] ?? 0), 0),
  }));
  return { sources, calendar, changed, changedQuestions };
}
