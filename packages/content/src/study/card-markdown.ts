import { RepaError } from '@repa/protocol';
import { type CardSource, formatCardComment, parseCardComment } from './card-comment.js';

/**
 * A card's two sides. A cloze card holds its hidden words between `==` in `front` and has an
 * empty `back`.
 */
export interface CardSides {
  /** The question, or the cloze text with its `==hidden==` words. */
  front: string;
  /** The answer; empty for a cloze card. */
  back: string;
}

/** A side's lines, trimmed at their ends; `invalid_request` when a line would break the card. */
function sideLines(side: string, which: string, id: string): string[] {
  const lines = side
    .replace(/\r\n?/gu, '\n')
    .split('\n')
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[0]?.trim() === '') lines.shift();
  while (lines.length > 0 && lines.at(-1)?.trim() === '') lines.pop();
  const broken = lines.find(
    (line) => line.trim() === '' || /^\s*\?{1,2}\s*$/u.test(line) || line.includes('<!--'),
  );
  if (broken !== undefined) {
    throw new RepaError(
      'invalid_request',
      `The ${which} of card ${id} has a line that would break the card (${JSON.stringify(broken)}).`,
      { fix: 'Leave out blank lines, lines of only "?" and HTML comments.' },
    );
  }
  return lines;
}

/**
 * The Markdown of one card in the Obsidian syntax, followed by its `<!--repa:card …-->` comment:
 * `front::back` when both sides are one line, the cloze text alone when `back` is empty, else the
 * front's lines, a line `?` and the back's lines. `invalid_request` when a side is empty (the
 * front) or holds a line that would break the card.
 */
export function formatCard(sides: CardSides, source: CardSource): string {
  const front = sideLines(sides.front, 'front', source.id);
  const back = sideLines(sides.back, 'back', source.id);
  if (front.length === 0) {
    throw new RepaError('invalid_request', `Card ${source.id} has an empty front.`, {
      fix: 'Give the card a question (or a cloze text with ==hidden== words).',
    });
  }
  const comment = formatCardComment(source);
  if (back.length === 0) {
    if (!/==[^=]+==/u.test(front.join('\n'))) {
      throw new RepaError('invalid_request', `Card ${source.id} has no answer.`, {
        fix: 'Give it an answer, or hide words of its front between == and ==.',
      });
    }
    return [...front, comment].join('\n');
  }
  const oneLine = front.length === 1 && back.length === 1;
  if (oneLine && !`${front[0]}${back[0]}`.includes('::')) {
    return `${front[0]}::${back[0]}\n${comment}`;
  }
  return [...front, '?', ...back, comment].join('\n');
}

/**
 * Where the card with `id` is in `lines`: from its first line (the non-blank lines right before
 * its comment, up to a heading or another card's comment) to its comment line, or `undefined`
 * when no comment names it.
 */
function cardBlock(
  lines: readonly string[],
  id: string,
): { start: number; end: number } | undefined {
  const end = lines.findIndex((line) => parseCardComment(line)?.id === id);
  if (end < 0) return undefined;
  let start = end;
  while (start > 0) {
    const above = lines[start - 1] ?? '';
    if (above.trim() === '' || /^#{1,6}\s/u.test(above) || parseCardComment(above) !== undefined) {
      break;
    }
    start -= 1;
  }
  return { start, end };
}

/**
 * A note's text with `cards` (each a card's Markdown from {@link formatCard}) in it: a card whose
 * id the note already holds replaces that card's lines in place (so its id and review history
 * stay); the others are appended, each after a blank line. `text` is `null` for a new note.
 * Also says which ids replaced a card.
 */
export function placeCards(
  text: string | null,
  cards: readonly { id: string; markdown: string }[],
): { text: string; replaced: string[] } {
  const replaced: string[] = [];
  const newline = text?.includes('\r\n') ? '\r\n' : '\n';
  const lines = text === null || text === '' ? [] : text.replace(/\r\n/gu, '\n').split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const card of cards) {
    const block = cardBlock(lines, card.id);
    const markdown = card.markdown.split('\n');
    if (block !== undefined) {
      lines.splice(block.start, block.end - block.start + 1, ...markdown);
      replaced.push(card.id);
      continue;
    }
    if (lines.length > 0 && lines.at(-1)?.trim() !== '') lines.push('');
    lines.push(...markdown);
  }
  return { text: `${lines.join(newline)}${newline}`, replaced };
}
