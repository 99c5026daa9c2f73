import type { CardSides } from './card-markdown.js';

/** One card as a draft run's answer wrote it. */
export interface AnsweredCard extends CardSides {
  /** Its place in the answer, from 1. */
  index: number;
  /** Whether it was written as a cloze card (`Cloze:`). */
  cloze: boolean;
  /** Where its `Source:` field starts and ends in the answer (UTF-16 code units). */
  source: { start: number; end: number } | undefined;
}

type Field = 'front' | 'back' | 'source';

// `Q:`, `A:`, `Cloze:`, `Source:`, tolerating a list marker and bold around the key.
const KEY =
  /^\s*(?:(?:[-*]|\d{1,3}[.)])\s+)?(?:\*\*)?(Q|Question|A|Answer|Cloze|Source|Cite|Citation)(?:\*\*)?\s*:(?:\*\*)?\s?/iu;

function fieldOf(key: string): { field: Field; cloze?: boolean } {
  const lower = key.toLowerCase();
  if (lower === 'q' || lower === 'question') return { field: 'front', cloze: false };
  if (lower === 'cloze') return { field: 'front', cloze: true };
  if (lower === 'a' || lower === 'answer') return { field: 'back' };
  return { field: 'source' };
}

/**
 * The cards of a draft run's answer, in order: each begins at a `Q:` or `Cloze:` line; `A:` and
 * `Source:` lines fill it, and a line right below a field continues it. Text before the first
 * card, and lines after a blank line that start no field, belong to no card.
 */
export function parseDraftAnswer(answer: string): AnsweredCard[] {
  const cards: AnsweredCard[] = [];
  let card:
    | { front: string[]; back: string[]; cloze: boolean; source?: { start: number; end: number } }
    | undefined;
  let field: Field | undefined;
  const finish = () => {
    if (card === undefined) return;
    cards.push({
      index: cards.length + 1,
      cloze: card.cloze,
      front: card.front.join('\n').trim(),
      back: card.cloze ? '' : card.back.join('\n').trim(),
      source: card.source,
    });
    card = undefined;
  };
  let offset = 0;
  for (const raw of answer.split('\n')) {
    const start = offset;
    offset += raw.length + 1;
    const line = raw.replace(/\r$/u, '');
    const key = KEY.exec(line);
    if (key?.[1] === undefined) {
      if (line.trim() === '') field = undefined;
      else if (card !== undefined && field !== undefined) {
        if (field === 'source' && card.source) card.source.end = start + line.length;
        else if (field !== 'source') card[field].push(line.trim());
      }
      continue;
    }
    const found = fieldOf(key[1]);
    const rest = line.slice(key[0].length);
    if (found.field === 'front') {
      finish();
      card = { front: [rest], back: [], cloze: found.cloze === true };
    } else if (card === undefined) {
      continue;
    } else if (found.field === 'back') {
      card.back.push(rest);
    } else {
      card.source ??= { start: start + key[0].length, end: start + line.length };
    }
    field = found.field;
  }
  finish();
  return cards;
}

/** Lowercase words of letters and digits, one space apart (`==` marks read as spaces). */
export const words = (text: string) =>
  text
    .normalize('NFC')
    .toLowerCase()
    .replace(/==/gu, ' ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== '')
    .join(' ');

/**
 * Why a card gives its answer away, or `undefined` when it does not: a question whose words hold
 * the answer's, or a cloze text whose visible words hold a hidden part (or that hides nothing).
 */
export function givesAnswerAway(card: CardSides): string | undefined {
  if (card.back.trim() === '') {
    const hidden = [...card.front.matchAll(/==([^=]+)==/gu)].map((match) => match[1] ?? '');
    if (hidden.length === 0) return 'its cloze text hides nothing (no ==words==)';
    const visible = ` ${words(card.front.replace(/==[^=]+==/gu, ' … '))} `;
    const shown = hidden.find((part) => words(part) !== '' && visible.includes(` ${words(part)} `));
    return shown === undefined ? undefined : `its cloze text shows the hidden "${shown}" elsewhere`;
  }
  const answer = words(card.back);
  if (answer === '') return undefined;
  return ` ${words(card.front)} `.includes(` ${answer} `)
    ? 'its front contains its answer'
    : undefined;
}
