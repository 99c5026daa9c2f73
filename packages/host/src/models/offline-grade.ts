import { parseGradeRequest } from '@repa/content';
import { PLAIN } from './offline-cards.js';

const NAMES = ['Again', 'Hard', 'Good', 'Easy'];

/** A word as compared: lowercase, a plural's `s` dropped (`tides` → `tide`). */
const stem = (word: string) => {
  const lower = word.toLowerCase();
  return lower.length > 4 && lower.endsWith('s') && !lower.endsWith('ss')
    ? lower.slice(0, -1)
    : lower;
};

/** The words of `text` (letters and digits), as written. */
const wordsOf = (text: string) => text.match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? [];

/**
 * The offline responder's answer to a grade request (`undefined` for any other request): graded
 * by the passage's words (the grader `passage-words`). The words to find are the passage's
 * content words (of four letters or more) the question does not show (a cloze: its hidden words); all found is Good, half or
 * more Hard, fewer Again, and the ones not found are the missing quote, as the passage writes them.
 */
export function gradeOffline(request: string): string | undefined {
  const grade = parseGradeRequest(request);
  if (grade === undefined) return undefined;
  const shown = new Set(wordsOf(grade.asked).map(stem));
  const given = new Set(wordsOf(grade.answer).map(stem));
  const sought: string[] = [];
  for (const word of wordsOf(grade.passage)) {
    const key = stem(word);
    if (word.length < 4 || PLAIN.has(key) || shown.has(key)) continue;
    if (!sought.some((one) => stem(one) === key)) sought.push(word);
  }
  const missed = sought.filter((word) => !given.has(stem(word)));
  const found = sought.length - missed.length;
  const score =
    sought.length === 0 ? 3 : found === sought.length ? 3 : found * 2 >= sought.length ? 2 : 1;
  const missing = missed.length === 0 ? 'nothing' : `"${missed.join(' … ')}"`;
  return `Graded by the passage's words.\nGrade: ${NAMES[score - 1]}\nMissing: ${missing}`;
}
