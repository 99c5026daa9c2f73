import { type CitationLocation, parseCitationLocation } from './citation-location.js';
import type { V1Result } from './methods.js';
import type { StudyGradeCounts, StudyProgress } from './wire-types.generated.js';

/** The four ratings in order, 1 to 4: their names (the keys of `study.due`'s `next`). */
export const RATING_NAMES = ['again', 'hard', 'good', 'easy'] as const;
/** The four ratings in order, as the CLI and the page label them. */
export const RATING_LABELS = ['Again', 'Hard', 'Good', 'Easy'] as const;

/** `n noun`, with an `s` unless `n` is 1. */
const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** What of a source changed under its study items, in words: `1 card, 2 questions` ('' if none). */
export function studyChangedText(
  one: Pick<StudyProgress, 'sourceChanged' | 'questionsChanged'>,
): string {
  return [
    one.sourceChanged > 0 ? plural(one.sourceChanged, 'card') : '',
    one.questionsChanged > 0 ? plural(one.questionsChanged, 'question') : '',
  ]
    .filter((part) => part !== '')
    .join(', ');
}

/** How many graded answers `counts` holds, whatever their grade. */
export function gradeCountTotal(counts: StudyGradeCounts): number {
  return RATING_NAMES.reduce((sum, name) => sum + counts[name], 0);
}

/** Where a study card's `source.cite` points (`notes/x.md:12-18`, `book.pdf#p4:3-9`). */
export type CitedPassage = CitationLocation;

/** The passage a card's `cite` names; `undefined` when it is not a passage citation. */
export function parseCite(cite: string): CitedPassage | undefined {
  const passage = parseCitationLocation(cite.trim());
  if (!passage || passage.startLine < 1 || passage.endLine < passage.startLine) return undefined;
  return passage;
}

/**
 * The lines of `passage` in the text `files.read` gave, each with its number as the citation
 * counts it (on a page: from the line after the page's marker); empty when the text no longer
 * reaches them.
 */
export function citedLines(
  read: Pick<V1Result<'files.read'>, 'text' | 'document'>,
  passage: CitedPassage,
): { line: number; text: string }[] {
  let base = 0;
  if (passage.page !== undefined) {
    const marker = read.document?.parts[passage.page - 1];
    if (marker === undefined) return [];
    base = marker.line;
  }
  const lines = read.text.split('\n');
  if (read.text.endsWith('\n')) lines.pop(); // The empty rest after the last line break.
  return lines
    .slice(base + passage.startLine - 1, base + passage.endLine)
    .map((text, index) => ({ line: passage.startLine + index, text }));
}

/** An interval for people, as a rating's button shows it: `now`, `10m`, `5h`, `8d`, `3mo`, `1.2y`. */
export function formatInterval(milliseconds: number): string {
  const minutes = Math.round(milliseconds / 60_000);
  if (minutes < 1) return 'now';
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours}h`;
  const days = Math.round(hours / 24);
  if (days < 31) return `${days}d`;
  if (days < 365) return `${Math.round(days / 30.4)}mo`;
  return `${(days / 365).toFixed(1)}y`;
}
