import {
  MAX_DRAFTED_CARDS,
  type Passage,
  parseDraftRequest,
  parseQuizRequest,
  passageReadArguments,
  passageText,
} from '@repa/content';
import { citationOf } from './offline-citation.js';

/** What the offline responder does for a draft request: read the passage, or answer with cards. */
type OfflineDraftStep =
  | { kind: 'read'; args: ReturnType<typeof passageReadArguments> }
  | { kind: 'answer'; text: string };

/** A page's (or chapter's) marker line, as the read tool shows it. */
const MARKER = /^\[(?:Page|Chapter) (\d+) of \d+/u;
/** Words too plain to hide in a cloze (or to grade an answer by). */
export const PLAIN = new Set(
  'about after also because before being between could every from have into more most only other over same some such than that their them then there these they this those through very were what when where which while with would your'.split(
    ' ',
  ),
);

/** The lines the read showed, each with the line number (and page) a citation gives it. */
function shownLines(
  passage: Passage,
  text: string,
): { line: number; text: string; page?: number }[] {
  const lines = text.split('\n');
  if (passage.page !== undefined) {
    const marker = lines.findIndex((line) => MARKER.test(line.trim()));
    if (marker < 0) return [];
    const page = Number(MARKER.exec(lines[marker]?.trim() ?? '')?.[1]);
    const shown: { line: number; text: string; page: number }[] = [];
    for (let index = marker + 1; index < lines.length; index++) {
      if (MARKER.test(lines[index]?.trim() ?? '')) break;
      shown.push({ line: index - marker, text: lines[index] ?? '', page });
    }
    return shown;
  }
  const first = passage.startLine ?? 1;
  const count = passage.endLine === undefined ? lines.length : passage.endLine - first + 1;
  return lines.slice(0, count).map((line, index) => ({ line: first + index, text: line }));
}

/** A cloze of `sentence`: its longest distinctive word (once in it) between `==`, or none. */
function clozeOf(sentence: string): string | undefined {
  const words = sentence.match(/[A-Za-z][A-Za-z'-]*[A-Za-z]/gu) ?? [];
  const count = (word: string) =>
    words.filter((other) => other.toLowerCase() === word.toLowerCase()).length;
  let best: string | undefined;
  for (const word of words) {
    if (word.length < 4 || PLAIN.has(word.toLowerCase()) || count(word) > 1) continue;
    if (best === undefined || word.length > best.length) best = word;
  }
  if (best === undefined) return undefined;
  return sentence.replace(new RegExp(`\\b${best}\\b`, 'u'), `==${best}==`);
}

/**
 * The offline responder's turn for a study draft or quiz request (`undefined` for any other
 * request): first a `read` of the passage with the arguments the request names, then
 * deterministic cloze cards (or cloze questions, as many as the quiz asks) from the lines read
 * (their longest distinctive word hidden), each citing its line with its first words quoted, in
 * the answer format the request asks for.
 */
export function draftCardsOffline(
  request: string,
  results: readonly { toolName: string; text: string }[],
): OfflineDraftStep | undefined {
  const draft = parseDraftRequest(request);
  const quiz = draft === undefined ? parseQuizRequest(request) : undefined;
  const passage = draft?.passage ?? quiz?.passage;
  if (passage === undefined) return undefined;
  const read = results.find((result) => result.toolName === 'read');
  if (read === undefined) return { kind: 'read', args: passageReadArguments(passage) };
  const most = quiz?.count ?? (draft?.redraft ? 1 : MAX_DRAFTED_CARDS);
  const cards: string[] = [];
  for (const shown of shownLines(passage, read.text)) {
    const sentence = shown.text.trim().replace(/^(?:[-*+]|\d+[.)])\s+/u, '');
    if (sentence === '' || sentence.startsWith('#') || /^\[.*\]$/u.test(sentence)) continue;
    if (passage.startLine !== undefined && passage.page !== undefined) {
      if (shown.line < passage.startLine || shown.line > (passage.endLine ?? shown.line)) continue;
    }
    const cloze = clozeOf(sentence);
    if (cloze === undefined) continue;
    const source = citationOf(passage.document, shown.line, shown.text.trim(), shown.page);
    cards.push(`Cloze: ${cloze}\nSource: ${source}`);
    if (cards.length === most) break;
  }
  const where = passageText(passage);
  return {
    kind: 'answer',
    text:
      cards.length === 0
        ? `The passage ${where} has no sentence to ${quiz ? 'ask about' : 'draft a card from'}.`
        : `${quiz ? 'Questions' : 'Cards'} from ${where}:\n\n${cards.join('\n\n')}`,
  };
}
