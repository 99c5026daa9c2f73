import { createHash } from 'node:crypto';
import { base32Id, type CardSource, parseCardComment } from './card-comment.js';

/**
 * How a card is written: `basic` (`front::back`), `reversed` (`a:::b`, two cards), `multiline`
 * (front lines, a line `?`, back lines), `multiline-reversed` (the same with `??`), `cloze`
 * (`==deleted==` words, one card per deletion).
 */
export type CardKind = 'basic' | 'reversed' | 'multiline' | 'multiline-reversed' | 'cloze';

/** One card found in a note. */
export interface NoteCard {
  /** Its stable id: from its Repa comment, else derived from the note's identity and its front. */
  id: string;
  kind: CardKind;
  /** What is asked (a cloze: the text with its deletion shown as `[...]`). */
  front: string;
  /** The answer (a cloze: the deleted words). */
  back: string;
  /** The card's first line in the note (from 1). */
  line: number;
  /** Its last line (before its comments). */
  endLine: number;
  /** The second card of a reversed pair (asks the back). */
  reverse: boolean;
  /** The Repa comment after it: where it came from. */
  source?: CardSource;
  /** Whether an Obsidian `<!--SR:…-->` schedule comment follows it (read, left alone). */
  obsidianSchedule: boolean;
  /** A hash of its front and back: a review records it, telling which text was reviewed. */
  textHash: string;
}

const FENCE = /^\s*(```|~~~)/u;
const HEADING = /^#{1,6}\s/u;
const SR_COMMENT = /<!--SR:[^>]*-->/gu;
const SR_ONLY = /^\s*<!--SR:[^>]*-->\s*$/u;
const CLOZE = /==([^=\n]+?)==/gu;
const TAG = /(?:^|\s)#([\p{L}\p{N}_][\p{L}\p{N}_/-]*)/gu;
/** A hand-written card's id: `h` and 12 base-32 characters of a hash of its note and its front. */
function derivedId(noteIdentity: string, front: string): string {
  const digest = createHash('sha256').update(`${noteIdentity}\n${front}`).digest();
  return base32Id('h', digest.subarray(0, 12));
}

function textHashOf(front: string, back: string): string {
  return createHash('sha256').update(`${front}\u0000${back}`).digest('hex').slice(0, 16);
}

/** Whether the `::` at `index` of `line` lies inside inline code (an odd number of backticks before). */
function inCode(line: string, index: number): boolean {
  let ticks = 0;
  for (let at = line.indexOf('`'); at !== -1 && at < index; at = line.indexOf('`', at + 1)) {
    ticks += 1;
  }
  return ticks % 2 === 1;
}

/** The card text of a line: Obsidian's schedule comments removed, trimmed. */
const clean = (text: string) => text.replace(SR_COMMENT, '').trim();

/** The tags a note's text names (`#tag` outside code), without `#`, in order, once each. */
export function noteTags(text: string): string[] {
  const tags = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (FENCE.test(line)) fenced = !fenced;
    if (fenced || HEADING.test(line)) continue;
    for (const match of line.matchAll(TAG)) tags.add(match[1] as string);
  }
  return [...tags];
}

/** A card as found, before its id and comments: which card of its block it is (0 first). */
type Found = Omit<NoteCard, 'id' | 'source' | 'obsidianSchedule' | 'textHash'> & {
  ordinal: number;
};

/**
 * The comments right after a card's last line (`after` is the index of the line following it):
 * a Repa card comment and an Obsidian schedule comment, in either order.
 */
function commentsAfter(
  lines: readonly string[],
  after: number,
): { source?: CardSource; schedule: boolean } {
  let source: CardSource | undefined;
  let schedule = false;
  for (let index = after; index < Math.min(after + 2, lines.length); index += 1) {
    const line = lines[index] as string;
    const parsed = source === undefined ? parseCardComment(line) : undefined;
    if (parsed !== undefined) source = parsed;
    else if (SR_ONLY.test(line)) schedule = true;
    else break;
  }
  return source === undefined ? { schedule } : { source, schedule };
}

/** Whether a line is one of the comments a card may carry (never card text itself). */
const isComment = (line: string) => parseCardComment(line) !== undefined || SR_ONLY.test(line);

/** The cards of one paragraph (consecutive non-blank lines, `start` its first line's index). */
function blockCards(block: readonly string[], start: number): Found[] {
  const textLines = block.map((line) => (isComment(line) ? undefined : line));
  const split = textLines.findIndex((line) => line?.trim() === '?' || line?.trim() === '??');
  if (split > 0) {
    const reversed = textLines[split]?.trim() === '??';
    const front = textLines.slice(0, split).filter((line) => line !== undefined);
    const backLines = textLines.slice(split + 1);
    const lastText = backLines.findLastIndex((line) => line !== undefined);
    const back = backLines.filter((line) => line !== undefined);
    if (back.length === 0) return [];
    const frontText = front.map(clean).join('\n');
    const backText = back.map(clean).join('\n');
    const base = { line: start + 1, endLine: start + split + 2 + lastText };
    const kind: CardKind = reversed ? 'multiline-reversed' : 'multiline';
    const cards: Found[] = [
      { ...base, kind, front: frontText, back: backText, reverse: false, ordinal: 0 },
    ];
    if (reversed) {
      cards.push({ ...base, kind, front: backText, back: frontText, reverse: true, ordinal: 1 });
    }
    return cards;
  }
  const cards: Found[] = [];
  let inline = false;
  for (const [offset, line] of textLines.entries()) {
    if (line === undefined) continue;
    const at = line.indexOf('::');
    if (at <= 0 || inCode(line, at)) continue;
    inline = true;
    const reversed = line.startsWith(':::', at);
    const front = clean(line.slice(0, at));
    const back = clean(line.slice(at + (reversed ? 3 : 2)));
    if (front === '' || back === '') continue;
    const base = { line: start + offset + 1, endLine: start + offset + 1 };
    const kind: CardKind = reversed ? 'reversed' : 'basic';
    cards.push({ ...base, kind, front, back, reverse: false, ordinal: 0 });
    if (reversed)
      cards.push({ ...base, kind, front: back, back: front, reverse: true, ordinal: 1 });
  }
  if (!inline) return clozeCards(textLines, start);
  // Beside inline cards, a line with deletions is a cloze card of its own.
  for (const [offset, line] of textLines.entries()) {
    if (line === undefined || cards.some((card) => card.line === start + offset + 1)) continue;
    const at = line.indexOf('::');
    if (at > 0 && !inCode(line, at)) continue;
    cards.push(...clozeCards([line], start + offset));
  }
  return cards.sort((a, b) => a.line - b.line);
}

/** The cloze cards of `textLines` (one per `==deletion==`; `start`: the first line's index). */
function clozeCards(textLines: readonly (string | undefined)[], start: number): Found[] {
  const text = textLines
    .filter((line) => line !== undefined)
    .map(clean)
    .join('\n');
  const deletions = [...text.matchAll(CLOZE)];
  const lastText = textLines.findLastIndex((line) => line !== undefined);
  return deletions.map((deletion, ordinal) => {
    let front = '';
    let from = 0;
    for (const [index, other] of deletions.entries()) {
      front += text.slice(from, other.index) + (index === ordinal ? '[...]' : (other[1] as string));
      from = other.index + other[0].length;
    }
    front += text.slice(from);
    return {
      kind: 'cloze' as const,
      front,
      back: deletion[1] as string,
      line: start + 1,
      endLine: start + lastText + 1,
      reverse: false,
      ordinal,
    };
  });
}

/**
 * The cards of a note's text, in the order they are written (spec R100): Obsidian
 * spaced-repetition syntax, outside fenced code and headings, each with the Repa comment on the
 * line after it (its id and source) or an id derived from `noteIdentity` and its front. Pure.
 */
export function parseNoteCards(text: string, noteIdentity: string): NoteCard[] {
  const lines = text.replaceAll('\r\n', '\n').split('\n');
  const cards: NoteCard[] = [];
  const derived = new Map<string, number>();
  let fenced = false;
  let block: string[] = [];
  let blockStart = 0;
  // A front matter block (`---` first, up to the next `---`) holds no cards.
  const matterEnd = lines[0] === '---' ? lines.indexOf('---', 1) : -1;
  const flush = () => {
    if (block.length === 0) return;
    for (const found of blockCards(block, blockStart)) {
      // The comments follow the card's own last line (a comment in the block is not card text).
      const { source, schedule } = commentsAfter(lines, found.endLine);
      let id: string;
      if (source !== undefined) {
        id =
          found.ordinal === 0
            ? source.id
            : `${source.id}-${found.kind === 'cloze' ? found.ordinal + 1 : 'r'}`;
      } else {
        const base = derivedId(noteIdentity, found.front);
        const seen = (derived.get(base) ?? 0) + 1;
        derived.set(base, seen);
        id = seen === 1 ? base : `${base}-${seen}`;
      }
      const { ordinal: _ordinal, ...card } = found;
      cards.push({
        ...card,
        id,
        ...(source === undefined ? {} : { source }),
        obsidianSchedule: schedule,
        textHash: textHashOf(found.front, found.back),
      });
    }
    block = [];
  };
  for (const [index, line] of lines.entries()) {
    if (index <= matterEnd) continue;
    if (FENCE.test(line)) {
      flush();
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (line.trim() === '' || HEADING.test(line)) {
      flush();
      continue;
    }
    if (block.length === 0) blockStart = index;
    block.push(line);
  }
  flush();
  return cards;
}
