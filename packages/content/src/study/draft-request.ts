import { RepaError } from '@repa/protocol';
import { isCardId } from './card-comment.js';

/** A passage cards are drafted from: a document, optionally one page of it, optionally lines. */
export interface Passage {
  /** A path of the space (relative to its root) or a `repa:` identity. */
  document: string;
  /** The page (or chapter) of a paged document. */
  page?: number;
  /** The first line (on the page, for a page), from 1. */
  startLine?: number;
  /** The last line. */
  endLine?: number;
}

/** What a draft run was asked: its passage and, for a redraft, the card it replaces. */
export interface DraftRequest {
  passage: Passage;
  /** A redraft: the card to replace (keeping its id) and the note holding it. */
  redraft?: { id: string; note: string };
}

/** The most cards one draft asks for. */
export const MAX_DRAFTED_CARDS = 8;

// `FILE`, `FILE:12`, `FILE:12-18`, `FILE#p2`, `FILE#p2:3-9`.
const PASSAGE = /^(.+?)(?:#p(\d{1,6}))?(?::(\d{1,9})(?:\s*[-\u2013]\s*(\d{1,9}))?)?$/u;

/**
 * The passage a learner wrote (`notes/x.md`, `notes/x.md:12-18`, `book.pdf#p2`, `book.pdf#p2:3-9`,
 * or a card's cite, whose path may be in `<…>`); `invalid_request` with a fix for anything else.
 */
export function parsePassage(written: string): Passage {
  const match = PASSAGE.exec(written.trim());
  const [, document = '', page, start, end] = match ?? [];
  const bad = (why: string) =>
    new RepaError('invalid_request', `${JSON.stringify(written)} is not a passage: ${why}.`, {
      fix: 'Name a file, optionally with lines or a page: notes/x.md, notes/x.md:12-18, book.pdf#p2.',
    });
  if (document === '' || /[`\n]/u.test(document)) throw bad('it names no file');
  const startLine = start === undefined ? undefined : Number(start);
  const endLine = end === undefined ? startLine : Number(end);
  if (startLine !== undefined && (startLine < 1 || (endLine ?? 0) < startLine)) {
    throw bad('its lines run backwards or start before line 1');
  }
  if (page !== undefined && Number(page) < 1) throw bad('pages count from 1');
  const bare =
    document.startsWith('<') && document.endsWith('>') ? document.slice(1, -1) : document;
  return {
    document: bare.startsWith('./') ? bare.slice(2) : bare,
    ...(page === undefined ? {} : { page: Number(page) }),
    ...(startLine === undefined ? {} : { startLine, endLine: endLine ?? startLine }),
  };
}

/** A passage written back: `notes/x.md:12-18`, `book.pdf#p2`. */
export function passageText(passage: Passage): string {
  const page = passage.page === undefined ? '' : `#p${passage.page}`;
  const { startLine, endLine } = passage;
  const lines =
    startLine === undefined
      ? ''
      : startLine === endLine
        ? `:${startLine}`
        : `:${startLine}-${endLine}`;
  return `${passage.document}${page}${lines}`;
}

/**
 * The `read` tool's arguments that show the passage: its lines, or its whole page (a page's lines
 * are cited only when its `[Page N of M]` marker was shown, so a page is read whole).
 */
export function passageReadArguments(passage: Passage): {
  path: string;
  pages?: string;
  offset?: number;
  limit?: number;
} {
  const { page, startLine, endLine } = passage;
  if (page !== undefined) return { path: passage.document, pages: String(page) };
  return {
    path: passage.document,
    ...(startLine === undefined
      ? {}
      : { offset: startLine, limit: (endLine ?? startLine) - startLine + 1 }),
  };
}

const FIRST_LINE =
  /^(?:Draft study cards|Redraft study card `([^`]+)` of `([^`]+)`) from the passage `([^`]+)`\.$/u;

/**
 * The answer format a draft's and a quiz's request share: the `Source:` line, the cloze form of a
 * `what` (card or question) and how to cite the passage's lines.
 */
export function citingFormat(passage: Passage, what: 'card' | 'question') {
  const { page } = passage;
  const cite =
    page === undefined ? `${passage.document}:LINE` : `${passage.document}#p${page}:LINE`;
  return {
    source: `Source: [${cite} "words copied exactly from that line"]`,
    cloze: [
      `or a cloze ${what}, a sentence of the passage with the words to recall between == and ==:`,
      'Cloze: The tide turns every ==six hours==.',
      `Source: [${cite} "The tide turns every six hours"]`,
    ],
    citing: `Cite one line or a range (LINE-LINE) of the passage you read, numbered as the read tool showed them${page === undefined ? '' : " (on a page: counted from the line after the page's [Page N of M] marker)"}, and quote words exactly as they stand there.`,
  };
}

/**
 * The request text of a draft run (a Repa-owned text, recorded as the run's input): its first line
 * names the passage (and, for a redraft, the card and its note), then the model is told to read
 * the passage with the `read` tool and the one answer format {@link parseDraftAnswer} reads.
 */
export function draftRequestText(request: DraftRequest): string {
  const passage = passageText(request.passage);
  const { redraft } = request;
  const first = redraft
    ? `Redraft study card \`${redraft.id}\` of \`${redraft.note}\` from the passage \`${passage}\`.`
    : `Draft study cards from the passage \`${passage}\`.`;
  const format = citingFormat(request.passage, 'card');
  return [
    first,
    '',
    `Read the passage with the read tool, with exactly these arguments: ${JSON.stringify(passageReadArguments(request.passage))}. Then write ${redraft ? 'exactly one card' : `at most ${MAX_DRAFTED_CARDS} flashcards`} that test what the passage says, and nothing from anywhere else.`,
    '',
    'Answer with the cards only, one block per card, a blank line between blocks. A card is a question and its answer:',
    'Q: the question (it must not contain its answer)',
    'A: the answer',
    format.source,
    ...format.cloze,
    '',
    `${format.citing} Repa keeps only cards whose citation it can verify against what you read, inside the passage asked for, and whose question does not give its answer away.`,
  ].join('\n');
}

/** What a draft run's request text asked, or `undefined` when the text is no draft request. */
export function parseDraftRequest(text: string): DraftRequest | undefined {
  const match = FIRST_LINE.exec(text.split('\n', 1)[0] ?? '');
  if (!match?.[3]) return undefined;
  let passage: Passage;
  try {
    passage = parsePassage(match[3]);
  } catch {
    return undefined;
  }
  const [, id, note] = match;
  if (id === undefined || note === undefined) return { passage };
  return isCardId(id) ? { passage, redraft: { id, note } } : undefined;
}
