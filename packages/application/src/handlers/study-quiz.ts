import {
  answerIdOf,
  type ContentStore,
  type GradeRequest,
  gradeRequestText,
  hintOf,
  isPassageQuote,
  parseGradeAnswer,
  parseGradeRequest,
  parsePassage,
  passageText,
  type QuizQuestion,
  quizQuestions,
  quizRequestText,
} from '@repa/content';
import { OFFLINE_MODEL_ID, RepaError, type RunInfo } from '@repa/protocol';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import { openSpaceStore } from '../space-store.js';
import type { HandlerParts } from './handler-parts.js';
import { openDeck } from './study.js';
import { finishedStudyRun } from './study-drafts.js';

type StudyQuizHandlers = Pick<
  NamespaceHandlers<'study'>,
  'study.quiz' | 'study.quizzed' | 'study.answer' | 'study.graded' | 'study.override'
>;

/** How many questions a quiz asks for unless told. */
const DEFAULT_COUNT = 3;

/** The request of a grade run, or `invalid_request` when the run is no grade run. */
function gradeRequestOf(run: RunInfo): GradeRequest {
  const request = parseGradeRequest(run.input.text);
  if (request === undefined) {
    throw new RepaError('invalid_request', `Run ${run.runId} is not the grade of a quiz answer.`, {
      fix: 'Name a run that study.answer started (repa study quiz prints it with each grade).',
    });
  }
  return request;
}

/** The given grade of a succeeded grade run; `model_error` when its answer gives none. */
function givenGrade(run: RunInfo) {
  const given = parseGradeAnswer(finishedStudyRun(run, 'Grade').output);
  if (given === undefined) {
    throw new RepaError('model_error', `Grade run ${run.runId} gave no grade (no "Grade:" line).`, {
      fix: 'Answer the question again, or with another model (--model).',
    });
  }
  return given;
}

/**
 * `study.quiz`, `study.quizzed`, `study.answer`, `study.graded`, `study.override` (spec
 * R109–R111): a quiz is a run writing questions on a passage, checked as drafted cards are; each
 * answer is graded by a run of its own in the quiz's session against the question's cited lines
 * (never a model-written key), and a final grade is one `answer` entry of the study log.
 */
export function studyQuizHandlers(parts: HandlerParts): StudyQuizHandlers {
  const { ledger, runs, appDirectory } = parts;
  /** The quiz run `runId` with its space's store and one of its questions. */
  const questionOf = async (
    runId: string,
    id: string,
  ): Promise<{ quiz: RunInfo; store: ContentStore; question: QuizQuestion }> => {
    const quiz = ledger.getRun(runId);
    const store = await openSpaceStore(quiz.space, appDirectory);
    const { questions } = await quizQuestions(store, finishedStudyRun(quiz, 'Quiz'));
    const question = questions.find((one) => one.id === id);
    if (question === undefined) {
      throw new RepaError('not_found', `Quiz ${runId} has no question ${id}.`, {
        fix: 'Answer a question study.quizzed lists (a question whose passage changed is dropped).',
      });
    }
    return { quiz, store, question };
  };
  return {
    'study.quiz': async (params, connection) => {
      const store = await openSpaceStore(params.space, appDirectory);
      const passage = parsePassage(params.passage);
      // The passage names a document of the space (or a granted material) now: else no run.
      await store.read(passage.document);
      const { run, resubmitted } = await runs.submit(
        {
          space: params.space,
          sessionId: params.sessionId,
          requestId: params.requestId,
          input: {
            type: 'text',
            text: quizRequestText({ passage, count: params.count ?? DEFAULT_COUNT }),
          },
          ...(params.overrides ? { overrides: params.overrides } : {}),
        },
        connection,
      );
      return { run, resubmitted, passage: passageText(passage) };
    },
    'study.quizzed': async ({ runId }) => {
      const run = ledger.getRun(runId);
      const store = await openSpaceStore(run.space, appDirectory);
      const quiz = await quizQuestions(store, finishedStudyRun(run, 'Quiz'));
      return {
        runId: run.runId,
        passage: quiz.passage,
        note: quiz.note,
        questions: quiz.questions.map(({ id, question, kind, cite, citation, version }) => ({
          id,
          question,
          kind,
          cite,
          citation,
          version,
        })),
        dropped: quiz.dropped,
      };
    },
    'study.answer': async (params, connection) => {
      const { quiz, question } = await questionOf(params.runId, params.question);
      if (params.after !== undefined) {
        const first = ledger.getRun(params.after);
        const asked = gradeRequestOf(first);
        if (asked.quiz !== quiz.runId || asked.question !== question.id || asked.after) {
          throw new RepaError(
            'invalid_request',
            `Run ${first.runId} is not the first try at question ${question.id} of quiz ${quiz.runId}.`,
            { fix: "Name, as after, the grade run of this question's first try." },
          );
        }
        if (givenGrade(first).grade > 2) {
          throw new RepaError(
            'invalid_request',
            `The first try of ${question.id} already stands.`,
            {
              fix: 'A second try follows only a first try graded Again or Hard.',
            },
          );
        }
      }
      const text = gradeRequestText({
        quiz: quiz.runId,
        question: question.id,
        ...(params.after === undefined ? {} : { after: params.after }),
        cite: question.cite,
        passage: question.quote,
        asked: question.question,
        answer: params.answer,
      });
      // A grade needs no editing tool: none is offered, whatever the settings say.
      const { run, resubmitted } = await runs.submit(
        {
          space: quiz.space,
          sessionId: quiz.sessionId,
          requestId: params.requestId,
          input: { type: 'text', text },
          overrides: { ...params.overrides, edits: 'off' },
        },
        connection,
      );
      return { run, resubmitted };
    },
    'study.graded': async ({ runId }) => {
      const run = ledger.getRun(runId);
      const request = gradeRequestOf(run);
      const given = givenGrade(run);
      const { quiz, question } = await questionOf(request.quiz, request.question);
      const kept = given.missing === '' || isPassageQuote(given.missing, question.quote);
      const missing = kept ? given.missing : '';
      const dropped = kept ? {} : { droppedMissing: given.missing };
      const grader = run.model === OFFLINE_MODEL_ID ? 'passage-words' : (run.model ?? 'unknown');
      const attempt = request.after === undefined ? 1 : 2;
      const base = {
        runId: run.runId,
        quiz: request.quiz,
        question: request.question,
        attempt,
        grade: given.grade,
        missing,
        ...dropped,
        grader,
      };
      if (attempt === 1 && given.grade <= 2) {
        const hint = hintOf(missing, question.cite);
        return { ...base, final: false, hint, answer: null, passage: null };
      }
      const answers =
        request.after === undefined
          ? [request.answer]
          : [gradeRequestOf(ledger.getRun(request.after)).answer, request.answer];
      const help = attempt === 1 ? 'none' : given.grade >= 3 ? 'hint' : 'passage';
      const { deck, call } = await openDeck(parts, quiz.space, {});
      const entry = await deck.answer(
        {
          id: answerIdOf(run.runId),
          origin: 'quiz',
          set: request.quiz,
          question: question.question,
          cite: question.cite,
          source: question.citation.target ?? question.citation.document,
          version: question.version,
          answers,
          grade: given.grade,
          missing,
          help,
          grader,
        },
        call,
      );
      return {
        ...base,
        final: true,
        hint: null,
        answer: { id: entry.id, help: entry.help, answers: entry.answers, version: entry.version },
        passage: { cite: question.cite, quote: question.quote },
      };
    },
    'study.override': async (params) => {
      const { deck, call } = await openDeck(parts, params.space, {});
      const { entry, answer } = await deck.override(
        params.answer,
        params.grade as 1 | 2 | 3 | 4,
        call,
      );
      return { id: entry.id, answer: answer.id, given: answer.grade, grade: entry.grade };
    },
  };
}
