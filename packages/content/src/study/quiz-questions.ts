import type { Citation, DroppedCard } from '@repa/protocol';
import { RepaError } from '@repa/protocol';
import type { ContentStore } from '../store/index.js';
import { passageText } from './draft-request.js';
import {
  checkProposals,
  type DraftedCards,
  type DraftRun,
  defaultNote,
  draftedCardId,
} from './drafted-cards.js';
import { parseQuizRequest, type QuizRequest } from './quiz-request.js';

/** A quiz question whose citation verified. */
export interface QuizQuestion {
  id: string;
  /** The question as the learner sees it (a cloze: its hidden words as `_____`). */
  question: string;
  kind: 'question' | 'cloze';
  cite: string;
  citation: Citation;
  version: string;
  /** The cited lines of that version: what an answer is graded against. */
  quote: string;
  /** The card the question becomes: a cloze as written, else the question and the passage. */
  card: { front: string; back: string };
}

/** The questions of a quiz run: those kept, those dropped with their reasons. */
export interface QuizQuestions {
  request: QuizRequest;
  passage: string;
  /** Where a question made a card goes by default (`cards/<source name>.md`). */
  note: string;
  questions: QuizQuestion[];
  dropped: DroppedCard[];
}

/**
 * The questions a quiz run wrote (spec R109), checked as drafted cards are (`checkProposals`):
 * kept only when the citation verified inside the passage asked for, a cloze hides its words and
 * the document still has the version read; the first `count` kept. `invalid_request` when the
 * run's request is no quiz request.
 */
export async function quizQuestions(store: ContentStore, run: DraftRun): Promise<QuizQuestions> {
  const request = parseQuizRequest(run.request);
  if (request === undefined) {
    throw new RepaError('invalid_request', `Run ${run.runId} is not a study quiz.`, {
      fix: 'Name a run that repa study quiz started (its id is printed with the questions).',
    });
  }
  const { target, kept, dropped } = await checkProposals(store, run, request.passage, {
    most: request.count,
    extra: () => `the quiz asked for ${request.count}`,
    needsAnswer: false,
  });
  const questions = kept.map((one): QuizQuestion => {
    const lines = one.quote.split('\n').filter((line) => line.trim() !== '');
    return {
      id: draftedCardId(run.runId, one.index),
      question: one.cloze ? one.front.replace(/==[^=]+==/gu, '_____') : one.front,
      kind: one.cloze ? 'cloze' : 'question',
      cite: one.cite,
      citation: one.citation,
      version: one.version,
      quote: one.quote,
      card: one.cloze
        ? { front: one.front, back: '' }
        : { front: one.front, back: lines.join('\n') },
    };
  });
  return {
    request,
    passage: passageText(request.passage),
    note: defaultNote(target),
    questions,
    dropped,
  };
}

/** The questions of a quiz as a draft's cards, so `acceptCards` saves one as a card. */
export function quizAsDraft(quiz: QuizQuestions): DraftedCards {
  return {
    request: { passage: quiz.request.passage },
    passage: quiz.passage,
    note: quiz.note,
    cards: quiz.questions.map(({ id, card, cite, citation, version, quote }) => ({
      id,
      ...card,
      cite,
      citation,
      version,
      quote,
    })),
    dropped: quiz.dropped,
  };
}
