import { randomBytes } from 'node:crypto';
import { SerialQueue } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import type { Card, FSRS, Grade } from 'ts-fsrs';
import type { ContentStore } from '../store/index.js';
import { ankiText } from './anki-export.js';
import { base32Id } from './card-comment.js';
import {
  DEFAULT_SCHEDULER_OPTIONS,
  forScheduler,
  logOf,
  newCard,
  type SchedulerOptions,
  schedulerOf,
  toLogged,
} from './card-schedule.js';
import { NoteScan, SourceCheck, type SourceStatus } from './deck-notes.js';
import type { CardKind, NoteCard } from './note-cards.js';
import {
  type AnswerEntry,
  type OverrideEntry,
  type RateEntry,
  type REVIEW_MODES,
  StudyReviewLog,
} from './review-log.js';
import { ReviewStates } from './review-states.js';
import { type ProgressOf, progressOf, StudyAnswers } from './study-progress.js';

/** A card of the space with where it is, its source's status and its FSRS state now. */
export interface StudyCard {
  id: string;
  /** The note holding it (path relative to the space root). */
  note: string;
  /** Its first line in the note. */
  line: number;
  kind: CardKind;
  front: string;
  back: string;
  /** The note's `#tags`. */
  tags: string[];
  source: SourceStatus;
  /** Its FSRS state (a new card's as of the call). */
  fsrs: Card;
  /** Whether it was never rated. */
  isNew: boolean;
}

/** A due card with what each rating would do (ts-fsrs `repeat`). */
export interface DueCard extends StudyCard {
  /** Per rating (1 Again … 4 Easy): the next due time and the interval in days. */
  next: Record<Grade, { due: Date; scheduledDays: number }>;
}

/** How a review was done: flipped, typed, a quiz question, with the tutor. */
export type ReviewMode = (typeof REVIEW_MODES)[number];

/** What every deck call may say: the time it is computed at and the scheduler's options. */
export interface DeckCall {
  /** Default: now. */
  now?: Date;
  /** Default: {@link DEFAULT_SCHEDULER_OPTIONS}. */
  options?: SchedulerOptions;
  /** A folder (`notes/bio`) or a tag (`#bio`): only its cards. */
  deck?: string;
}

const entryId = () => base32Id('r', randomBytes(12));

const decks = new WeakMap<ContentStore, StudyDeck>();

function inDeck(deck: string | undefined, note: { path: string; tags: string[] }): boolean {
  if (deck === undefined || deck === '' || deck === '.') return true;
  if (deck.startsWith('#')) {
    const tag = deck.slice(1);
    return note.tags.some((one) => one === tag || one.startsWith(`${tag}/`));
  }
  const folder = deck.replace(/^\.\//u, '').replace(/\/+$/u, '');
  return note.path.startsWith(`${folder}/`);
}

/**
 * The cards of one space and their review record (spec R100–R104): cards read from its notes,
 * states derived from `.repa/study/reviews.log` once and then one entry at a time, so a rating
 * costs the same whatever the log's length. One deck per store; calls run one at a time.
 */
export class StudyDeck {
  private readonly log: StudyReviewLog;
  private readonly notes = new NoteScan();
  private readonly sources = new SourceCheck();
  private states = new ReviewStates();
  private answers = new StudyAnswers();
  private read = { end: 0, inode: 0n, damaged: 0 };
  private readonly queue = new SerialQueue();

  /** A deck of its own, reading the whole log again ({@link StudyDeck.of} shares one per store). */
  constructor(private readonly store: ContentStore) {
    this.log = new StudyReviewLog(store.space.fs, store.space.repaDir);
  }

  /** The deck of `store`'s space (the same one for every call in this process). */
  static of(store: ContentStore): StudyDeck {
    let deck = decks.get(store);
    if (deck === undefined) {
      deck = new StudyDeck(store);
      decks.set(store, deck);
    }
    return deck;
  }

  /** Every card of the space (of `call.deck`), in note order, with its state and source. */
  cards(call: DeckCall = {}): Promise<StudyCard[]> {
    return this.run(call, (_scheduler, now) => this.list(call.deck, now));
  }

  /** The cards due at `now`, learning ones first, then reviews by due time, then new cards. */
  due(call: DeckCall & { limit?: number }): Promise<{ cards: DueCard[]; total: number }> {
    return this.run(call, async (scheduler, now) => {
      const all = (await this.list(call.deck, now)).filter((card) => card.fsrs.due <= now);
      const rank = (card: StudyCard) => (card.isNew ? 2 : card.fsrs.state === 2 ? 1 : 0);
      all.sort(
        (a, b) =>
          rank(a) - rank(b) || (rank(a) === 2 ? 0 : a.fsrs.due.getTime() - b.fsrs.due.getTime()),
      );
      const shown = all.slice(0, call.limit ?? all.length).map((card) => {
        const preview = scheduler.repeat(forScheduler(card.fsrs, card.id), now);
        const next = {} as DueCard['next'];
        for (const grade of [1, 2, 3, 4] as Grade[]) {
          const item = preview[grade].card;
          next[grade] = { due: item.due, scheduledDays: item.scheduled_days };
        }
        return { ...card, next };
      });
      return { cards: shown, total: all.length };
    });
  }

  /**
   * Rates card `id` (1 Again … 4 Easy) at `now`: one line appended to the review log and fsynced,
   * then the card's new state. `not_found` for a card no note holds.
   */
  rate(
    id: string,
    rating: Grade,
    call: DeckCall & { mode?: ReviewMode; durationMs?: number },
  ): Promise<{ card: StudyCard; entry: RateEntry }> {
    return this.run(call, async (scheduler, now) => {
      let found = this.notes.find(id);
      if (found === undefined) {
        await this.notes.scan(this.store);
        found = this.notes.find(id);
      }
      if (found === undefined) {
        throw new RepaError('not_found', `No note of the space holds a card with id ${id}.`, {
          fix: 'List the cards with `repa study due` and rate one of their ids.',
        });
      }
      const before = this.states.get(id) ?? newCard(now);
      if (before.last_review !== undefined && before.last_review > now) {
        throw new RepaError(
          'invalid_request',
          `Card ${id} was last rated at ${before.last_review.toISOString()}, after ${now.toISOString()}.`,
          { fix: 'Rate it at a time after its last rating.' },
        );
      }
      const { card, log } = scheduler.next(forScheduler(before, id), now, rating);
      const entry: RateEntry = {
        kind: 'rate',
        id: entryId(),
        card: id,
        text: found.card.textHash,
        rating,
        at: now.toISOString(),
        mode: call.mode ?? 'flip',
        ...(call.durationMs === undefined ? {} : { ms: Math.round(call.durationMs) }),
        log: logOf(log),
        after: toLogged(card),
      };
      await this.log.append(entry);
      await this.sync(scheduler);
      const { note, card: noteCard } = found;
      const source = await this.sources.statusOf(this.store, noteCard, new Set());
      return { card: this.studyCard(note, noteCard, source, now), entry };
    });
  }

  /** Takes back the last rating that stands (an undo line in the log); `undefined`: none. */
  undo(call: DeckCall = {}): Promise<{ undone: RateEntry; fsrs: Card | undefined } | undefined> {
    return this.run(call, async (scheduler, now) => {
      const last = this.states.last();
      if (last === undefined) return undefined;
      await this.log.append({
        kind: 'undo',
        id: entryId(),
        undoes: last.id,
        at: now.toISOString(),
      });
      await this.sync(scheduler);
      return { undone: last, fsrs: this.states.get(last.card) };
    });
  }

  /**
   * Appends a graded answer (spec R110) and fsyncs it; an answer whose id the log already holds is
   * not appended again, and the one there is returned.
   */
  answer(entry: Omit<AnswerEntry, 'kind' | 'at'>, call: DeckCall = {}): Promise<AnswerEntry> {
    return this.run(call, async (scheduler, now) => {
      const found = this.answers.get(entry.id);
      if (found !== undefined) return found;
      const written: AnswerEntry = { kind: 'answer', ...entry, at: now.toISOString() };
      await this.log.append(written);
      await this.sync(scheduler);
      return written;
    });
  }

  /**
   * Appends the learner's own grade for answer `of` beside the one given (spec R110);
   * `not_found` for an answer the log does not hold.
   */
  override(
    of: string,
    grade: 1 | 2 | 3 | 4,
    call: DeckCall = {},
  ): Promise<{ entry: OverrideEntry; answer: AnswerEntry }> {
    return this.run(call, async (scheduler, now) => {
      const answer = this.answers.get(of);
      if (answer === undefined) {
        throw new RepaError('not_found', `The study log holds no answer ${of}.`, {
          fix: 'Override the grade of an answer study.graded recorded (its answer id).',
        });
      }
      const entry: OverrideEntry = {
        kind: 'override',
        id: entryId(),
        of,
        grade,
        at: now.toISOString(),
      };
      await this.log.append(entry);
      await this.sync(scheduler);
      return { entry, answer };
    });
  }

  /**
   * Progress per source document and version, or of the one `source` names (spec R112), with the
   * cards and questions whose source changed and the reviews due on each of the next 14 days of
   * `timeZone` (default: this process's).
   */
  status(call: DeckCall & { source?: string; timeZone?: string }): Promise<ProgressOf<StudyCard>> {
    return this.run(call, async (scheduler, now) => {
      const seen = new Set<string>();
      const cards = (await this.scanned(call.deck, now, seen)).map(({ card, noteCard }) => ({
        ...card,
        version: noteCard.source?.version ?? null,
        ratings: this.states.ratingsOf(card.id),
      }));
      const progress = await progressOf({
        cards,
        answers: this.answers.all(),
        answersOfCardSources: call.deck !== undefined,
        versionNow: (document) => this.sources.versionOf(this.store, document, seen),
        scheduler,
        now,
        timeZone: call.timeZone,
        source: call.source,
      });
      const changed = progress.changed.map(
        ({ version: _version, ratings: _ratings, ...card }) => card,
      );
      return { ...progress, changed };
    });
  }

  /** The cards (of `call.deck`) as Anki's text import, the card id as each note's GUID. */
  exportAnki(call: DeckCall = {}): Promise<{ text: string; cards: number }> {
    return this.run(call, async (_scheduler, now) => {
      const cards = await this.list(call.deck, now);
      return { text: ankiText(cards), cards: cards.length };
    });
  }

  /** Reviews read from the log, cards rebuilt with ts-fsrs, and damaged lines skipped. */
  get record(): { reviews: number; rebuilt: number; damaged: number } {
    return {
      reviews: this.states.reviews,
      rebuilt: this.states.rebuilt,
      damaged: this.read.damaged,
    };
  }

  private run<T>(call: DeckCall, task: (scheduler: FSRS, now: Date) => Promise<T>): Promise<T> {
    return this.queue.run('deck', async () => {
      const scheduler = schedulerOf(call.options ?? DEFAULT_SCHEDULER_OPTIONS);
      const now = call.now ?? new Date();
      await this.sync(scheduler);
      return task(scheduler, now);
    });
  }

  /** Applies what the log gained since it was last read (all of it when it was replaced). */
  private async sync(scheduler: FSRS): Promise<void> {
    const { size, inode } = await this.log.size();
    if (inode !== this.read.inode || size < this.read.end) {
      // A log removed or replaced: read anew, and append to the file that is there now.
      await this.log.close();
      this.states = new ReviewStates();
      this.answers = new StudyAnswers();
      this.read = { end: 0, inode, damaged: 0 };
    }
    if (size === this.read.end) return;
    const part = await this.log.read(this.read.end);
    for (const entry of part.entries) {
      this.states.apply(entry, scheduler);
      this.answers.apply(entry);
    }
    this.read.end = part.end;
    this.read.damaged += part.damaged;
  }

  private async list(deck: string | undefined, now: Date): Promise<StudyCard[]> {
    return (await this.scanned(deck, now, new Set())).map((one) => one.card);
  }

  /** The cards of the notes (of `deck`), each with the note's card it was read from. */
  private async scanned(
    deck: string | undefined,
    now: Date,
    seen: Set<string>,
  ): Promise<{ card: StudyCard; noteCard: NoteCard }[]> {
    const cards: { card: StudyCard; noteCard: NoteCard }[] = [];
    for (const note of await this.notes.scan(this.store)) {
      if (!inDeck(deck, note)) continue;
      for (const noteCard of note.cards) {
        const source = await this.sources.statusOf(this.store, noteCard, seen);
        cards.push({ card: this.studyCard(note, noteCard, source, now), noteCard });
      }
    }
    return cards;
  }

  private studyCard(
    note: { path: string; tags: string[] },
    card: NoteCard,
    source: SourceStatus,
    now: Date,
  ): StudyCard {
    const state = this.states.get(card.id);
    return {
      id: card.id,
      note: note.path,
      line: card.line,
      kind: card.kind,
      front: card.front,
      back: card.back,
      tags: note.tags,
      source,
      fsrs: state ?? newCard(now),
      isNew: state === undefined,
    };
  }
}
