import { SETTING_ITEMS, type SettingItem } from '@repa/protocol';
import {
  type Card,
  createEmptyCard,
  type FSRS,
  fsrs,
  GenSeedStrategyWithCardId,
  type Grade,
  generatorParameters,
  type ReviewLog,
  type StepUnit,
  StrategyMode,
} from 'ts-fsrs';
import type { LoggedCard, RateEntry } from './review-log.js';

/** The scheduler's options, the `study.*` settings (spec R102). */
export interface SchedulerOptions {
  /** The recall probability aimed at when a card comes due (0.7–0.99). */
  retention: number;
  /** The longest interval, in days. */
  maximumInterval: number;
  /** Whether intervals get a little random spread (so cards learned together do not stay together). */
  fuzz: boolean;
  /** Whether new and forgotten cards go through short steps within the day. */
  shortTerm: boolean;
  /** The steps of a new card, e.g. `['1m', '10m']`. */
  learningSteps: readonly string[];
  /** The steps of a forgotten card, e.g. `['10m']`. */
  relearningSteps: readonly string[];
}

/**
 * The scheduler's options from the `study.*` settings: `settingOf` gives a key's effective value
 * (each item's default where it gives none, or one its schema refuses).
 */
export function schedulerOptionsOf(
  settingOf: (key: string) => unknown = () => undefined,
): SchedulerOptions {
  const value = <T>(key: string): T => {
    const item = SETTING_ITEMS.find((one) => one.key === key) as SettingItem<T>;
    const given = settingOf(key);
    return item.schema.safeParse(given).success ? (given as T) : item.defaultValue;
  };
  return {
    retention: value('study.retention'),
    maximumInterval: value('study.maximumInterval'),
    fuzz: value('study.fuzz'),
    shortTerm: value('study.shortTerm'),
    learningSteps: value('study.learningSteps'),
    relearningSteps: value('study.relearningSteps'),
  };
}

/** The scheduler's options when no setting changes them (the `study.*` items' defaults). */
export const DEFAULT_SCHEDULER_OPTIONS: SchedulerOptions = Object.freeze(schedulerOptionsOf());

/** The field of a card handed to the scheduler that holds its id (the seed of its fuzz). */
const CARD_ID_FIELD = 'repaCardId';

/**
 * `card` as the scheduler takes it, carrying card `id`: its fuzz is seeded by the card and its
 * review count (ts-fsrs's card-id seed), not by the millisecond it is rated, so the interval a due
 * list shows for a rating is the one the rating then gives.
 */
export function forScheduler(card: Card, id: string): Card {
  return { ...card, [CARD_ID_FIELD]: id } as Card;
}

/** The ts-fsrs scheduler of `options` (cards handed to it through {@link forScheduler}). */
export function schedulerOf(options: SchedulerOptions): FSRS {
  return fsrs(
    generatorParameters({
      request_retention: options.retention,
      maximum_interval: options.maximumInterval,
      enable_fuzz: options.fuzz,
      enable_short_term: options.shortTerm,
      learning_steps: options.learningSteps as StepUnit[],
      relearning_steps: options.relearningSteps as StepUnit[],
    }),
  ).useStrategy(StrategyMode.SEED, GenSeedStrategyWithCardId(CARD_ID_FIELD));
}

/** A card as the log records it. */
export function toLogged(card: Card): LoggedCard {
  return {
    due: card.due.toISOString(),
    stability: card.stability,
    difficulty: card.difficulty,
    elapsed_days: card.elapsed_days,
    scheduled_days: card.scheduled_days,
    learning_steps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    state: card.state,
    ...(card.last_review === undefined ? {} : { last_review: card.last_review.toISOString() }),
  };
}

/** A card as ts-fsrs takes it, from the log's record. */
export function fromLogged(card: LoggedCard): Card {
  return {
    ...card,
    due: new Date(card.due),
    ...(card.last_review === undefined ? {} : { last_review: new Date(card.last_review) }),
  } as Card;
}

/** ts-fsrs's review log as the log records it. */
export function logOf(log: ReviewLog): RateEntry['log'] {
  return {
    rating: log.rating,
    state: log.state,
    due: log.due.toISOString(),
    stability: log.stability,
    difficulty: log.difficulty,
    elapsed_days: log.elapsed_days,
    last_elapsed_days: log.last_elapsed_days,
    scheduled_days: log.scheduled_days,
    learning_steps: log.learning_steps,
    review: log.review.toISOString(),
  };
}

/** A card never reviewed, as of `now`. */
export function newCard(now: Date): Card {
  return createEmptyCard(now);
}

/**
 * A card rebuilt from its ratings alone (each `rating` at `at`, in order) with `scheduler`: what
 * the log says when its cached states do not follow one from another.
 */
export function replayCard(
  scheduler: FSRS,
  ratings: readonly { card: string; rating: number; at: string }[],
): Card | undefined {
  let card: Card | undefined;
  for (const { card: id, rating, at } of ratings) {
    const time = new Date(at);
    const from: Card = card ?? createEmptyCard<Card>(time);
    // A rating dated before the card's last one (a clock set back) counts at that last time.
    const when =
      from.last_review !== undefined && from.last_review > time ? from.last_review : time;
    card = scheduler.next(forScheduler(from, id), when, rating as Grade).card;
  }
  return card;
}
