import { createHash } from 'node:crypto';
import { RATING_NAMES } from '@repa/protocol';
import { base32Id } from './card-comment.js';
import { words } from './draft-answer.js';

/** The id of the answer entry a grade run records: the same for the same run, so it is kept once. */
export function answerIdOf(gradeRunId: string): string {
  return base32Id('a', createHash('sha256').update(gradeRunId).digest().subarray(0, 12));
}

/** A grade as a grade run's answer gave it. */
export interface GivenGrade {
  /** 1 Again … 4 Easy. */
  grade: 1 | 2 | 3 | 4;
  /** The quote of what was missing, as the answer wrote it (empty: nothing). */
  missing: string;
}

const GRADE =
  /^\s*(?:[-*]\s+)?(?:\*\*)?Grade(?:\*\*)?\s*:(?:\*\*)?\s*\**\s*(again|hard|good|easy|[1-4])\b/imu;
const MISSING = /^\s*(?:[-*]\s+)?(?:\*\*)?Missing(?:\*\*)?\s*:(?:\*\*)?\s*(.*)$/imu;
/** Words a grade answer uses to say nothing was missing. */
const NOTHING = /^(?:nothing|none|n\/a|-|—)?\.?$/iu;

/**
 * The grade and missing quote of a grade run's answer (`Grade: Good`, `Missing: "…"`), or
 * `undefined` when it gives no grade. The quote loses its surrounding quotation marks.
 */
export function parseGradeAnswer(output: string): GivenGrade | undefined {
  const found = GRADE.exec(output)?.[1]?.toLowerCase();
  if (found === undefined) return undefined;
  const grade = (
    /^[1-4]$/u.test(found) ? Number(found) : (RATING_NAMES as readonly string[]).indexOf(found) + 1
  ) as 1 | 2 | 3 | 4;
  const written = (MISSING.exec(output)?.[1] ?? '').trim();
  const missing = written.replace(/^["“'](.*)["”']\.?$/su, '$1').trim();
  return { grade, missing: NOTHING.test(missing) ? '' : missing };
}

/**
 * Whether `missing` is words of `passage`: each of its parts (split at `…` or `...`) is a run of
 * the passage's words, compared as lowercase letters and digits.
 */
export function isPassageQuote(missing: string, passage: string): boolean {
  const text = ` ${words(passage)} `;
  const parts = missing.split(/…|\.\.\./u).map(words);
  return (
    parts.some((part) => part !== '') &&
    parts.every((part) => text.includes(` ${part} `) || part === '')
  );
}

/**
 * A hint for a second try that does not give the answer: the first letter and length of each
 * word missed (at most three), with more their count and the first one's, with none where to look.
 */
export function hintOf(missing: string, cite: string): string {
  const missed = words(missing)
    .split(' ')
    .filter((word) => word !== '');
  if (missed.length === 0) return `Reread ${cite} in your mind, then answer again.`;
  if (missed.length > 3) {
    const first = missed[0] ?? '';
    return `The passage ${cite} says more: what you missed is ${missed.length} words, the first "${first[0]}…" (${first.length} letters).`;
  }
  const shown = missed.map((word) => `"${word[0]}…" (${word.length} letters)`);
  return `You missed ${missed.length === 1 ? 'a word' : `${missed.length} words`} of the passage: ${shown.join(', ')}.`;
}
