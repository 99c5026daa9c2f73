import {
  type GradeRequest,
  parseGradeAnswer,
  parseGradeRequest,
  type TutorPassage,
  tutorPassage,
} from '@repa/content';
import { RepaError, type RunInfo } from '@repa/protocol';
import type { RunLedger } from '../runs/run-ledger.js';
import { openSpaceStore } from '../space-store.js';
import type { HandlerParts } from './handler-parts.js';
import { finishedStudyRun, isStudyRequest } from './study-runs.js';

/** The longest question an `answer` entry keeps (the study log's limit). */
const MAX_QUESTION_CHARS = 4000;

/** The request of a grade run, or `invalid_request` when the run is no grade run. */
export function gradeRequestOf(run: RunInfo): GradeRequest {
  const request = parseGradeRequest(run.input.text);
  if (request === undefined) {
    throw new RepaError(
      'invalid_request',
      `Run ${run.runId} is not the grade of a quiz answer or a tutor check.`,
      {
        fix: 'Name a run that study.answer or study.check started (repa study quiz and repa study check print it with each grade).',
      },
    );
  }
  return request;
}

/** The given grade of a succeeded grade run; `model_error` when its answer gives none. */
export function givenGrade(run: RunInfo): NonNullable<ReturnType<typeof parseGradeAnswer>> {
  const given = parseGradeAnswer(finishedStudyRun(run, 'Grade').output);
  if (given === undefined) {
    throw new RepaError('model_error', `Grade run ${run.runId} gave no grade (no "Grade:" line).`, {
      fix: 'Answer the question again, or with another model (--model).',
    });
  }
  return given;
}

/**
 * The first try a second try names (`after`): a grade run of the same question (`same`) that was
 * itself a first try and was graded Again or Hard; `invalid_request` otherwise.
 */
export function firstTryOf(
  ledger: RunLedger,
  after: string,
  same: (asked: GradeRequest) => boolean,
  what: string,
): RunInfo {
  const first = ledger.getRun(after);
  const asked = gradeRequestOf(first);
  if (!same(asked) || asked.after) {
    throw new RepaError('invalid_request', `Run ${first.runId} is not the first try at ${what}.`, {
      fix: "Name, as after, the grade run of this question's first try.",
    });
  }
  if (givenGrade(first).grade > 2) {
    throw new RepaError('invalid_request', `The first try at ${what} already stands.`, {
      fix: 'A second try follows only a first try graded Again or Hard.',
    });
  }
  return first;
}

/** What a tutor check grades against: the tutor run, its cited passage and the learner's question. */
export interface TutorCheck {
  tutor: RunInfo;
  passage: TutorPassage;
  /** What the learner asked the tutor, in their words (the run's input): the question recorded. */
  asked: string;
}

/**
 * The tutor check of run `runId`'s reply (spec R114): `invalid_request` when the run was not in
 * tutor mode, `finishedStudyRun`'s refusals while it runs or when it did not succeed, then
 * `tutorPassage`'s (no verified citation, a changed source).
 */
export async function tutorCheckOf(
  { ledger, appDirectory }: Pick<HandlerParts, 'ledger' | 'appDirectory'>,
  runId: string,
  citation?: number,
): Promise<TutorCheck> {
  const tutor = ledger.getRun(runId);
  const mode = tutor.modelSettings?.studyMode;
  if (mode !== 'tutor') {
    throw new RepaError(
      'invalid_request',
      `Run ${tutor.runId} was not in tutor mode (study.mode ${mode ?? 'answer'}): a check answers a tutor's reply.`,
      {
        fix: 'Turn tutor mode on (/tutor in repa chat, Tutor mode on the page), ask the tutor, then check your answer against its reply.',
      },
    );
  }
  if (isStudyRequest(tutor.input.text)) {
    throw new RepaError(
      'invalid_request',
      `Run ${tutor.runId} is Repa's own study request (a draft, a quiz or a grade), not a question to the tutor.`,
      { fix: 'Name the run of a question you asked the tutor (repa runs list shows its request).' },
    );
  }
  const finished = finishedStudyRun(tutor, 'Tutor');
  const words = tutor.input.text.trim();
  if (words === '') {
    throw new RepaError('invalid_request', `Run ${tutor.runId} asked the tutor nothing in words.`, {
      fix: 'Ask the tutor your question in words, then check your answer against its reply.',
    });
  }
  const store = await openSpaceStore(tutor.space, appDirectory);
  const passage = await tutorPassage(store, finished, citation);
  const asked =
    words.length > MAX_QUESTION_CHARS ? `${words.slice(0, MAX_QUESTION_CHARS - 1)}…` : words;
  return { tutor, passage, asked };
}
