import {
  acceptCards,
  type ContentStore,
  type DraftRequest,
  draftedCards,
  draftRequestText,
  parseCardComment,
  parsePassage,
  parseQuizRequest,
  passageText,
  quizAsDraft,
  quizQuestions,
} from '@repa/content';
import { SerialQueue } from '@repa/durable-fs';
import { RepaError } from '@repa/protocol';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import { openSpaceStore } from '../space-store.js';
import type { HandlerParts } from './handler-parts.js';
import { finishedStudyRun, studyRunOverrides } from './study-runs.js';

type StudyDraftHandlers = Pick<
  NamespaceHandlers<'study'>,
  'study.draft' | 'study.drafted' | 'study.accept'
>;

/** The request of a redraft: the passage the card's comment cites, and the card with its note. */
async function redraftRequest(
  store: ContentStore,
  card: { id: string; note: string },
): Promise<DraftRequest> {
  const note = await store.read(card.note);
  const source = note.bytes
    .toString('utf8')
    .split('\n')
    .map((line) => parseCardComment(line))
    .find((found) => found?.id === card.id);
  if (source === undefined) {
    throw new RepaError('not_found', `${card.note} holds no card ${card.id}.`, {
      fix: 'Name the note that holds the card (its <!--repa:card …--> comment names its id).',
    });
  }
  return { passage: parsePassage(source.cite), redraft: { id: card.id, note: note.target } };
}

/**
 * `study.draft`, `study.drafted`, `study.accept` (spec R105–R107): a draft is a run whose input is
 * Repa's draft request; its answer's cards are checked against the run's checked citations, and
 * accepted cards are saved as one more save of that run, so rewinding the run removes them. A quiz
 * run's questions are accepted as cards the same way (R111).
 */
export function studyDraftHandlers(parts: HandlerParts): StudyDraftHandlers {
  const { ledger, runs, appDirectory } = parts;
  /** Accepts of one run, one at a time (each takes the run's next operation id). */
  const accepting = new SerialQueue();
  return {
    'study.draft': async (params, connection) => {
      if ((params.passage === undefined) === (params.card === undefined)) {
        throw new RepaError('invalid_request', 'A draft names a passage or a card, one of them.', {
          fix: 'Pass passage (notes/x.md:12-18, book.pdf#p2) to draft, or card to redraft one.',
        });
      }
      const store = await openSpaceStore(params.space, appDirectory);
      const request = params.card
        ? await redraftRequest(store, params.card)
        : { passage: parsePassage(params.passage ?? '') };
      // The passage names a document of the space (or a granted material) now: else no run.
      await store.read(request.passage.document);
      const { run, resubmitted } = await runs.submit(
        {
          space: params.space,
          sessionId: params.sessionId,
          requestId: params.requestId,
          input: { type: 'text', text: draftRequestText(request) },
          overrides: studyRunOverrides(params.overrides),
        },
        connection,
      );
      return { run, resubmitted, passage: passageText(request.passage) };
    },
    'study.drafted': async ({ runId }) => {
      const run = ledger.getRun(runId);
      const store = await openSpaceStore(run.space, appDirectory);
      const drafted = await draftedCards(store, finishedStudyRun(run, 'Draft'));
      const redraft = drafted.request.redraft?.id;
      return {
        runId: run.runId,
        passage: drafted.passage,
        note: drafted.note,
        ...(redraft === undefined ? {} : { redraft }),
        cards: drafted.cards,
        dropped: drafted.dropped,
      };
    },
    'study.accept': async (params) => {
      const run = ledger.getRun(params.runId);
      const accepted = await accepting.run(run.runId, async () => {
        const store = await openSpaceStore(run.space, appDirectory);
        // A quiz's questions become cards the same way (one card writer, one save of its run).
        const drafted = parseQuizRequest(run.input.text)
          ? quizAsDraft(await quizQuestions(store, finishedStudyRun(run, 'Quiz')))
          : await draftedCards(store, finishedStudyRun(run, 'Draft'));
        return acceptCards(store, run.runId, drafted, params.cards, params.note);
      });
      return { runId: run.runId, ...accepted };
    },
  };
}
