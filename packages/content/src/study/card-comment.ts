import { randomBytes } from 'node:crypto';

/**
 * Where a drafted card came from, kept in the one HTML comment Repa adds after the card in the
 * learner's note (invisible when the note is rendered). No schedule is kept there: the review log
 * is the record.
 */
export interface CardSource {
  /** The card's stable id (`c` and ten base-32 characters for cards Repa drafted). */
  id: string;
  /** The passage as a Repa citation: `notes/x.md:12-18` or `book.pdf#p4:3-9`. */
  cite: string;
  /** The version (sha256) of the cited document when the card was written. */
  version: string;
  /** The cited lines as they read then (what "source changed" is judged against). */
  quote: string;
}

/** A line holding a Repa card comment: `<!--repa:card {json}-->`, alone on its line. */
const COMMENT = /^\s*<!--repa:card (\{.*\})-->\s*$/u;
/** Letters, digits and `-`: an id a note, a log line and an Anki GUID column all carry safely. */
const CARD_ID = /^[a-z0-9][a-z0-9-]{3,63}$/u;
const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * `prefix` and one base-32 character per byte of `bytes` (random, or a digest for an id that must
 * come out the same): the one spelling of the study folder's ids (cards, reviews).
 */
export function base32Id(prefix: string, bytes: Uint8Array): string {
  let id = prefix;
  for (const byte of bytes) id += BASE32[byte % 32];
  return id;
}

/** A new card id: `c` and ten random base-32 characters (50 bits). */
export function newCardId(): string {
  return cardIdOf(randomBytes(10));
}

/** The card id of ten bytes (random, or a digest for an id that must come out the same). */
export function cardIdOf(bytes: Uint8Array): string {
  return base32Id('c', bytes.subarray(0, 10));
}

/** Whether `id` is one a card may carry. */
export function isCardId(id: string): boolean {
  return CARD_ID.test(id);
}

/**
 * The comment line for a card's source. JSON keeps the quote's characters as they are; `--` is
 * written `-\u002d` so the comment cannot end early (HTML comments may not hold `--`).
 */
export function formatCardComment(source: CardSource): string {
  const json = JSON.stringify({
    id: source.id,
    cite: source.cite,
    version: source.version,
    quote: source.quote,
  });
  return `<!--repa:card ${json.replaceAll('--', '-\\u002d')}-->`;
}

/** The card source a note's line holds, or `undefined` when the line is not a well-formed one. */
export function parseCardComment(line: string): CardSource | undefined {
  const match = COMMENT.exec(line);
  if (!match?.[1]) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(match[1]);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, cite, version, quote } = value as Record<string, unknown>;
  if (typeof id !== 'string' || !isCardId(id)) return undefined;
  if (typeof cite !== 'string' || typeof version !== 'string' || typeof quote !== 'string') {
    return undefined;
  }
  return { id, cite, version, quote };
}
