import {
  answerIdOf,
  type ContentStore,
  type GradeRequest,
  gradeRequestText,
  hintOf,
  isPassageQuote,
  parsePassage,
  passageText,
  type QuizQuestion,
  quizQuestions,
  quizRequestText,
} from '@repa/content';
import { OFFLINE_MODEL_ID, RepaError, type RunInfo } from '@repa/protocol';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import { openSpaceStore } from '../space-store.js';
import { firstTryOf, givenGrade, gradeRequestOf, tutorCheckOf } from './grade-runs.js';
import type { HandlerParts } from './handler-parts.js';
import { openDeck } from './study.js';
import { finishedStudyRun, studyRunOverrides } from './study-runs.js';

type StudyQuizHandlers = Pick<
  NamespaceHandlers<'study'>,
  'study.quiz' | 'study.quizzed' | 'study.answer' | 'study.graded' | 'study.override'
>;

/** How many questions a quiz asks for unless told. */
const DEFAULT_COUNT = 3;

/** What a grade run graded against, whoever asked: as its `answer` entry records it. */
interface Asked {
  space: string;
  origin: 'quiz' | 'tutor';
  /** The quiz run, or the tutor run. */
  set: string;
  /** The question as the learner saw it (a tutor check: as they asked it). */
  question: string;
  cite: string;
  source: string;
  version: string;
  /** The cited lines. */
  quote: string;
  /** Whose question it is, as `study.graded` names it. */
  ids: { quiz: string; question: string } | { tutor: string; citation: number };
}

/**
 * `study.quiz`, `study.quizzed`, `study.answer`, `study.graded`, `study.override` (spec
 * R109–R111): a quiz is a run writing questions on a passage, checked as drafted cards are; each
 * answer is graded by a run of its own in the quiz's session against the question's cited lines
 * (never a model-written key), and a final grade is one `answer` entry of the study log. A tutor
 * check's grade run (`study.check`, R114) is read and recorded by the same `study.graded`.
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
  /** What a grade run graded against: its quiz question, or its tutor check's passage. */
  const askedOf = async (request: GradeRequest): Promise<Asked> => {
    if ('tutor' in request) {
      const { tutor, passage, asked } = await tutorCheckOf(parts, request.tutor, request.citation);
      return {
        space: tutor.space,
        origin: 'tutor',
        set: tutor.runId,
        question: asked,
        cite: passage.cite,
        source: passage.source,
        version: passage.version,
        quote: passage.quote,
        ids: { tutor: tutor.runId, citation: passage.index },
      };
    }
    const { quiz, question } = await questionOf(request.quiz, request.question);
    return {
      space: quiz.space,
      origin: 'quiz',
      set: quiz.runId,
      question: question.question,
      cite: question.cite,
      source: question.citation.target ?? question.citation.document,
      version: question.version,
      quote: question.quote,
      ids: { quiz: quiz.runId, question: question.id },
    };
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
          overrides: studyRunOverrides(params.overrides),
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
        firstTryOf(
          ledger,
          params.after,
          (asked) => 'quiz' in asked && asked.quiz === quiz.runId && asked.question === question.id,
          `question ${question.id} of quiz ${quiz.runId}`,
        );
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
      const { run, resubmitted } = await runs.submit(
        {
          space: quiz.space,
          sessionId: quiz.sessionId,
          requestId: params.requestId,
          input: { type: 'text', text },
          overrides: studyRunOverrides(params.overrides, { grade: true }),
        },
        connection,
      );
      return { run, resubmitted };
    },
    'study.graded': async ({ runId }) => {
      const run = ledger.getRun(runId);
      const request = gradeRequestOf(run);
      const given = givenGrade(run);
      const asked = await askedOf(request);
      const kept = given.missing === '' || isPassageQuote(given.missing, asked.quote);
      const missing = kept ? given.missing : '';
      const dropped = kept ? {} : { droppedMissing: given.missing };
      const grader = run.model === OFFLINE_MODEL_ID ? 'passage-words' : (run.model ?? 'unknown');
      const attempt = request.after === undefined ? 1 : 2;
      const base = {
        runId: run.runId,
        ...asked.ids,
        attempt,
        grade: given.grade,
        missing,
        ...dropped,
        grader,
      };
      if (attempt === 1 && given.grade <= 2) {
        const hint = hintOf(missing, asked.cite);
        return { ...base, final: false, hint, answer: null, passage: null };
      }
      const answers =
        request.after === undefined
          ? [request.answer]
          : [gradeRequestOf(ledger.getRun(request.after)).answer, request.answer];
      const help = attempt === 1 ? 'none' : given.grade >= 3 ? 'hint' : 'passage';
      const { deck, call } = await openDeck(parts, asked.space, {});
      const { origin, set, question, cite, source, version } = asked;
      const entry = await deck.answer(
        {
          id: answerIdOf(run.runId),
          ...{ origin, set, question, cite, source, version },
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
        passage: { cite, quote: asked.quote },
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
