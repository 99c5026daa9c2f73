import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import {
  type Citation,
  citationPlace,
  type DraftedCard,
  type DroppedCard,
  type DroppedCardReason,
  RepaError,
} from '@repa/protocol';
import { wholeTextReadings } from '../citations/index.js';
import { readContentText } from '../documents/index.js';
import type { ContentStore } from '../store/index.js';
import { cardIdOf } from './card-comment.js';
import { givesAnswerAway, parseDraftAnswer } from './draft-answer.js';
import {
  type DraftRequest,
  type Passage,
  parseDraftRequest,
  passageText,
} from './draft-request.js';

/** What {@link draftedCards} needs of a finished draft run (its ledger record). */
export interface DraftRun {
  runId: string;
  /** The run's request text. */
  request: string;
  /** Its final answer. */
  output: string;
  /** The answer's citations as checked when the run ended. */
  citations: readonly Citation[];
}

/** The cards of a draft run: those kept, and those dropped with their reasons. */
export interface DraftedCards {
  request: DraftRequest;
  /** The passage asked for, written back. */
  passage: string;
  /** Where accepted cards go by default. */
  note: string;
  cards: DraftedCard[];
  dropped: DroppedCard[];
}

/** The most characters of a document a draft reads to quote its cited lines. */
const MAX_PASSAGE_CHARS = 16 * 1024 * 1024;

/** A drafted card's id: the same for the same run and place, so accepting names it. */
export function draftedCardId(runId: string, index: number): string {
  return cardIdOf(createHash('sha256').update(`${runId}\n${index}`).digest());
}

/** `cards/<source name>.md`: where a passage's cards go unless the learner names a note. */
export function defaultNote(target: string): string {
  const name = posix.basename(target.replaceAll('\\', '/'));
  const stem = name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : name;
  return `cards/${stem === '' ? name : stem}.md`;
}

/** The citation written in a card's Source field, checked (the first one there). */
function sourceCitation(
  citations: readonly Citation[],
  source: { start: number; end: number } | undefined,
): Citation | undefined {
  if (source === undefined) return undefined;
  return citations.find(
    (citation) => citation.offset >= source.start && citation.offset < source.end,
  );
}

/** Why a verified citation is outside the passage asked for, or `undefined` when inside. */
function outsidePassage(
  citation: Citation,
  passage: Passage,
  document: { target: string; identity?: string | undefined },
): string | undefined {
  const where = citationPlace(citation);
  const same =
    citation.target === document.target ||
    (document.identity !== undefined && citation.identity === document.identity);
  if (!same) return `it cites ${where}, not ${passageText(passage)}`;
  if (passage.page !== undefined && citation.page !== passage.page) {
    return `it cites ${where}, not page ${passage.page}`;
  }
  const { startLine, endLine } = passage;
  if (startLine === undefined || endLine === undefined) return undefined;
  return citation.startLine < startLine || citation.endLine > endLine
    ? `it cites ${where}, outside lines ${startLine}–${endLine}`
    : undefined;
}

/** Why a checked citation does not stand, as a drop reason and words. */
export function unverified(citation: Citation): { reason: DroppedCardReason; explanation: string } {
  const where = citationPlace(citation);
  switch (citation.status) {
    case 'quote_not_found':
      return {
        reason: 'forged_quote',
        explanation: `the quoted words "${citation.quote ?? ''}" are not in ${where}`,
      };
    case 'range_outside':
      return { reason: 'not_verified', explanation: `${where} is past the end of what was read` };
    case 'unknown_document':
      return {
        reason: 'not_verified',
        explanation: `${citation.document} is no document of the space`,
      };
    default:
      return { reason: 'not_verified', explanation: `the run never read ${where}` };
  }
}

/** The cited lines of the document as it is now, or `undefined` when it changed since `version`. */
type QuoteOf = (citation: Citation) => Promise<string | undefined>;

/** The cited lines of each citation's document, each document read once (see {@link QuoteOf}). */
export function quotes(store: ContentStore): QuoteOf {
  const texts = new Map<string, Promise<ReturnType<typeof wholeTextReadings> | undefined>>();
  const readingsOf = (identity: string, version: string) => {
    let found = texts.get(identity);
    if (found === undefined) {
      found = readContentText(store, identity, { maxChars: MAX_PASSAGE_CHARS }).then(
        ({ text, snapshot, document }) =>
          snapshot.version !== version
            ? undefined
            : wholeTextReadings({
                target: snapshot.target,
                identity: snapshot.identity,
                version: snapshot.version,
                text,
                document: document && { unit: document.unit, parts: document.parts.length },
              }),
        (error: unknown) => {
          if (RepaError.isInstance(error) && error.code === 'not_found') return undefined;
          throw error;
        },
      );
      texts.set(identity, found);
    }
    return found;
  };
  return async (citation) => {
    const { identity, version } = citation;
    if (identity === undefined || version === undefined) return undefined;
    const readings = await readingsOf(identity, version);
    const reading = readings?.find((one) => one.page === citation.page);
    if (reading === undefined) return undefined;
    const from = citation.startLine - reading.firstLine;
    const lines = reading.lines.slice(from, from + citation.endLine - citation.startLine + 1);
    return lines.join('\n');
  };
}

/** Why a verified citation's lines are gone: its document changed since the run read them. */
export function changedSince(citation: Citation): string {
  return `${citation.target ?? citation.document} changed since the run read it`;
}

/** A card's citation in the Repa form its comment keeps: `notes/x.md:12-14`, `book.pdf#p2:3`. */
export function citeOf(citation: Citation): string {
  const page = citation.page === undefined ? '' : `#p${citation.page}`;
  const lines =
    citation.startLine === citation.endLine
      ? `${citation.startLine}`
      : `${citation.startLine}-${citation.endLine}`;
  const document = citation.target ?? citation.document;
  return `${/\s/u.test(document) ? `<${document}>` : document}${page}:${lines}`;
}

/** A card or question a run proposed that passed every check: as written, with its citation. */
export interface CheckedProposal {
  /** Its place in the answer, from 1. */
  index: number;
  front: string;
  back: string;
  cloze: boolean;
  /** The citation in the Repa form a card comment keeps. */
  cite: string;
  citation: Citation;
  version: string;
  /** The cited lines of that version. */
  quote: string;
}

/** How many proposals a run keeps, and why one past them is dropped. */
interface KeepRule {
  most: number;
  /** The explanation of an `extra_card` drop. */
  extra: (kept: readonly CheckedProposal[]) => string;
  /** Whether a proposal that is not a cloze needs an `A:` line (cards do, quiz questions not). */
  needsAnswer: boolean;
}

/**
 * The proposals of a run's answer (`Q:`/`A:` or `Cloze:` blocks with a `Source:`), each checked
 * (spec R105, R109): kept only when its Source cites, with a citation verified against what the run
 * read, lines of `passage`, when it keeps its answer hidden and the cited document still has the
 * version read; every other one is dropped with its reason.
 */
export async function checkProposals(
  store: ContentStore,
  run: DraftRun,
  passage: Passage,
  rule: KeepRule,
): Promise<{ target: string; kept: CheckedProposal[]; dropped: DroppedCard[] }> {
  const located = await store.locate(passage.document);
  const document = { target: located.target, identity: located.identity };
  const quoteOf = quotes(store);
  const kept: CheckedProposal[] = [];
  const dropped: DroppedCard[] = [];
  for (const card of parseDraftAnswer(run.output)) {
    const citation = sourceCitation(run.citations, card.source);
    const drop = (reason: DroppedCardReason, explanation: string) =>
      dropped.push({
        index: card.index,
        front: card.front,
        back: card.back,
        reason,
        explanation,
        ...(citation === undefined ? {} : { citation }),
      });
    if (citation === undefined) {
      drop('no_citation', 'its Source cites no passage');
      continue;
    }
    if (citation.status !== 'verified') {
      const { reason, explanation } = unverified(citation);
      drop(reason, explanation);
      continue;
    }
    const outside = outsidePassage(citation, passage, document);
    if (outside !== undefined) {
      drop('outside_passage', outside);
      continue;
    }
    if (!card.cloze && card.back === '' && rule.needsAnswer) {
      drop('no_answer', 'it has no answer (no A: line)');
      continue;
    }
    const givesAway = card.cloze || card.back !== '' ? givesAnswerAway(card) : undefined;
    if (givesAway !== undefined) {
      drop('gives_away', givesAway);
      continue;
    }
    if (kept.length >= rule.most) {
      drop('extra_card', rule.extra(kept));
      continue;
    }
    const quote = await quoteOf(citation);
    if (quote === undefined) {
      drop('source_changed', changedSince(citation));
      continue;
    }
    const { index, front, back, cloze } = card;
    const cite = citeOf(citation);
    kept.push({
      index,
      front,
      back,
      cloze,
      cite,
      citation,
      version: citation.version ?? '',
      quote,
    });
  }
  return { target: located.target, kept, dropped };
}

/**
 * The cards a draft run proposed, checked by {@link checkProposals}; a redraft keeps its first
 * kept card, with the redrafted card's id. `invalid_request` when the run's request is no draft
 * request.
 */
export async function draftedCards(store: ContentStore, run: DraftRun): Promise<DraftedCards> {
  const request = parseDraftRequest(run.request);
  if (request === undefined) {
    throw new RepaError('invalid_request', `Run ${run.runId} is not a study draft.`, {
      fix: 'Name a run that repa study draft started (its id is printed with the cards).',
    });
  }
  const { passage, redraft } = request;
  const { target, kept, dropped } = await checkProposals(store, run, passage, {
    most: redraft === undefined ? Number.POSITIVE_INFINITY : 1,
    extra: () => `a redraft keeps one card (${redraft?.id})`,
    needsAnswer: true,
  });
  const cards = kept.map(({ index, front, back, cite, citation, version, quote }) => ({
    id: redraft?.id ?? draftedCardId(run.runId, index),
    front,
    back,
    cite,
    citation,
    version,
    quote,
  }));
  return {
    request,
    passage: passageText(passage),
    note: redraft?.note ?? defaultNote(target),
    cards,
    dropped,
  };
}
