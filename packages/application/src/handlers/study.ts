import {
  type DeckCall,
  type StudyCard as DeckCard,
  type SchedulerOptions,
  StudyDeck,
  schedulerOptionsOf,
} from '@repa/content';
import type { StudyCard, StudyCardState } from '@repa/protocol';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import { openSpaceStore } from '../space-store.js';
import type { HandlerParts } from './handler-parts.js';

/** The most due cards one `study.due` gives unless `limit` says otherwise. */
const DUE_LIMIT = 100;
const STATES = ['new', 'learning', 'review', 'relearning'] as const;

/** A card's FSRS state on the wire. */
function wireState(card: DeckCard['fsrs'], isNew: boolean): StudyCardState {
  return {
    state: isNew ? 'new' : STATES[card.state],
    due: card.due.toISOString(),
    stability: card.stability,
    difficulty: card.difficulty,
    scheduledDays: card.scheduled_days,
    learningSteps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    ...(card.last_review === undefined ? {} : { lastReview: card.last_review.toISOString() }),
  };
}

function wireCard(card: DeckCard): StudyCard {
  return {
    id: card.id,
    note: card.note,
    line: card.line,
    kind: card.kind,
    front: card.front,
    back: card.back,
    tags: card.tags,
    source: { ...card.source },
    fsrs: wireState(card.fsrs, card.isNew),
  };
}

/** The review methods of the `study` namespace (drafting's are in study-drafts.ts, quizzes' in study-quiz.ts). */
type StudyReviewHandlers = Pick<
  NamespaceHandlers<'study'>,
  'study.due' | 'study.rate' | 'study.undo' | 'study.status' | 'study.export'
>;

/** What a call may say of the deck: the time to compute at and the deck's folder or tag. */
type DeckGiven = { now?: string | undefined; deck?: string | undefined };

/**
 * The deck of `space` (`StudyDeck.of` its store) and a call with the scheduler's options read from
 * the space's `study.*` settings now.
 */
export async function openDeck(
  { appDirectory, settings }: Pick<HandlerParts, 'appDirectory' | 'settings'>,
  space: string,
  given: DeckGiven,
): Promise<{ deck: StudyDeck; call: DeckCall & { options: SchedulerOptions } }> {
  const [store, items] = await Promise.all([
    openSpaceStore(space, appDirectory),
    settings.get({ space }),
  ]);
  const options = schedulerOptionsOf((key) => items.find((item) => item.key === key)?.value);
  const call: DeckCall & { options: SchedulerOptions } = { options };
  if (given.now !== undefined) call.now = new Date(given.now);
  if (given.deck !== undefined) call.deck = given.deck;
  return { deck: StudyDeck.of(store), call };
}

/**
 * `study.*`: the cards of a space's notes and their review record (spec R100–R104), answered from
 * one deck per space in this process (`StudyDeck.of` its store: states built from the log once,
 * then one line at a time), with the scheduler's options read from the space's `study.*` settings
 * at each call.
 */
export function studyHandlers({
  appDirectory,
  settings,
}: Pick<HandlerParts, 'appDirectory' | 'settings'>): StudyReviewHandlers {
  const open = (space: string, given: DeckGiven) =>
    openDeck({ appDirectory, settings }, space, given);
  return {
    'study.due': async (params) => {
      const { deck, call } = await open(params.space, params);
      const { cards, total } = await deck.due({ ...call, limit: params.limit ?? DUE_LIMIT });
      return {
        cards: cards.map((card) => {
          const at = (grade: 1 | 2 | 3 | 4) => ({
            due: card.next[grade].due.toISOString(),
            scheduledDays: card.next[grade].scheduledDays,
          });
          return {
            ...wireCard(card),
            next: { again: at(1), hard: at(2), good: at(3), easy: at(4) },
          };
        }),
        total,
      };
    },
    'study.rate': async (params) => {
      const { deck, call } = await open(params.space, params);
      const { card, entry } = await deck.rate(params.card, params.rating as 1 | 2 | 3 | 4, {
        ...call,
        ...(params.mode === undefined ? {} : { mode: params.mode }),
        ...(params.durationMs === undefined ? {} : { durationMs: params.durationMs }),
      });
      return { card: wireCard(card), reviewedAt: entry.at };
    },
    'study.undo': async (params) => {
      const { deck, call } = await open(params.space, {});
      const undone = await deck.undo(call);
      if (undone === undefined) return { undone: null, fsrs: null };
      return {
        undone: {
          card: undone.undone.card,
          rating: undone.undone.rating,
          reviewedAt: undone.undone.at,
        },
        fsrs: undone.fsrs === undefined ? null : wireState(undone.fsrs, false),
      };
    },
    'study.status': async (params) => {
      const { deck, call } = await open(params.space, params);
      const now = call.now ?? new Date();
      const status = await deck.status({
        ...call,
        now,
        ...(params.source === undefined ? {} : { source: params.source }),
        ...(params.timeZone === undefined ? {} : { timeZone: params.timeZone }),
      });
      return {
        at: now.toISOString(),
        sources: status.sources,
        calendar: status.calendar,
        changed: status.changed.map(wireCard),
        changedQuestions: status.changedQuestions,
      };
    },
    'study.export': async (params) => {
      const { deck, call } = await open(params.space, params);
      const { text, cards } = await deck.exportAnki(call);
      return { format: 'anki-text' as const, text, cards };
    },
  };
}
