import type { Card, FSRS } from 'ts-fsrs';
import { fromLogged, replayCard } from './card-schedule.js';
import type { RateEntry, ReviewEntry } from './review-log.js';

/** One card's record: its state now and the ratings that stand, each with the state before it. */
interface CardRecord {
  card: Card;
  ratings: { entry: RateEntry; before: Card | undefined }[];
}

/**
 * The cards' FSRS states derived from the review log (spec R101), one entry at a time: a rating's
 * cached state is taken when it follows from the card's state before it (one more review),
 * else the card is rebuilt from its ratings with ts-fsrs; an undo restores the state before the
 * rating it names. Applying an entry costs the same whatever the log's length.
 */
export class ReviewStates {
  private readonly records = new Map<string, CardRecord>();
  /** The ratings that stand, in log order: entry id → card id. */
  private readonly standing = new Map<string, string>();
  /** Entry ids in log order (an undone one is dropped once it reaches the end). */
  private readonly order: string[] = [];
  /** Cards rebuilt with ts-fsrs because the log's cached state did not follow. */
  rebuilt = 0;
  /** Ratings read (undone ones included). */
  reviews = 0;

  /** The state of card `id`, or `undefined` when it was never rated (or every rating undone). */
  get(id: string): Card | undefined {
    return this.records.get(id)?.card;
  }

  /** The ids of the cards that have a state. */
  ids(): IterableIterator<string> {
    return this.records.keys();
  }

  /** The ratings of card `id` that stand, in log order. */
  ratingsOf(id: string): RateEntry[] {
    return this.records.get(id)?.ratings.map((one) => one.entry) ?? [];
  }

  /** The last rating that stands (what an undo takes back), if any. */
  last(): RateEntry | undefined {
    while (this.order.length > 0 && !this.standing.has(this.order.at(-1) as string)) {
      this.order.pop();
    }
    const id = this.order.at(-1);
    if (id === undefined) return undefined;
    return this.records.get(this.standing.get(id) as string)?.ratings.at(-1)?.entry;
  }

  /** Applies one log entry (`scheduler` rebuilds a card whose cached state does not follow). */
  apply(entry: ReviewEntry, scheduler: FSRS): void {
    if (entry.kind === 'rate') this.rate(entry, scheduler);
    else if (entry.kind === 'undo') this.undo(entry.undoes, scheduler);
  }

  private rate(entry: RateEntry, scheduler: FSRS): void {
    this.reviews += 1;
    const record = this.records.get(entry.card);
    const before = record?.card;
    let card = fromLogged(entry.after);
    const ratings = record?.ratings ?? [];
    ratings.push({ entry, before });
    if (card.reps !== (before?.reps ?? 0) + 1) {
      card = this.rebuild(ratings, scheduler);
    }
    if (record === undefined) this.records.set(entry.card, { card, ratings });
    else record.card = card;
    this.standing.set(entry.id, entry.card);
    this.order.push(entry.id);
  }

  private undo(undoes: string, scheduler: FSRS): void {
    const cardId = this.standing.get(undoes);
    if (cardId === undefined) return;
    this.standing.delete(undoes);
    const record = this.records.get(cardId) as CardRecord;
    const index = record.ratings.findIndex((one) => one.entry.id === undoes);
    const last = index === record.ratings.length - 1;
    const before = record.ratings[index]?.before;
    record.ratings.splice(index, 1);
    if (record.ratings.length === 0) {
      this.records.delete(cardId);
      return;
    }
    record.card = last && before !== undefined ? before : this.rebuild(record.ratings, scheduler);
  }

  private rebuild(ratings: CardRecord['ratings'], scheduler: FSRS): Card {
    this.rebuilt += 1;
    const entries = ratings.map((one) => one.entry);
    return replayCard(scheduler, entries) as Card;
  }
}
