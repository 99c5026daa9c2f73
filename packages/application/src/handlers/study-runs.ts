import { parseDraftRequest, parseGradeRequest, parseQuizRequest } from '@repa/content';
import { isTerminalRunStatus, RepaError, type RunInfo, type RunOverrides } from '@repa/protocol';

// The runs Repa itself starts for the study loop (spec R105, R109, R110, R114): how they are
// started, recognised, and read back once they ended.

/** What a study run made: cards, questions, a grade, or a tutor's reply to check. */
const MADE = {
  Draft: 'proposed no cards',
  Quiz: 'wrote no questions',
  Grade: 'gave no grade',
  Tutor: 'gave no reply to check an answer against',
};
/** How each kind of study run is started again. */
const AGAIN = {
  Draft: 'Draft again (repa study draft)',
  Quiz: 'Start the quiz again (repa study quiz)',
  Grade: 'Answer the question again',
  Tutor: 'Ask the tutor again',
};

/**
 * A study run that succeeded, as `draftedCards`, `quizQuestions` and `tutorPassage` read it;
 * `busy` while it runs, `invalid_request` when it ended otherwise.
 */
export function finishedStudyRun(run: RunInfo, kind: keyof typeof MADE) {
  if (!isTerminalRunStatus(run.status)) {
    throw new RepaError('busy', `${kind} run ${run.runId} is still ${run.status}.`, {
      fix: 'Wait for it to end (repa runs show follows it), then ask again.',
      details: { runId: run.runId },
    });
  }
  if (run.status !== 'succeeded') {
    throw new RepaError(
      'invalid_request',
      `${kind} run ${run.runId} ${run.status}: it ${MADE[kind]}.`,
      {
        fix: `${AGAIN[kind]}, or resume the run (repa runs resume) when it was interrupted.`,
      },
    );
  }
  return {
    runId: run.runId,
    request: run.input.text,
    output: run.output ?? '',
    citations: run.citations ?? [],
  };
}

/**
 * The one-run settings of a run of Repa's own study request (a draft, a quiz; `grade`: a grade,
 * which needs no editing tool either): answered as asked, whatever tutor mode the settings say
 * (spec R114), over the caller's `overrides`.
 */
export function studyRunOverrides(
  overrides: RunOverrides | undefined,
  { grade = false } = {},
): RunOverrides {
  return { ...overrides, ...(grade ? { edits: 'off' } : {}), studyMode: 'answer' };
}

/**
 * Whether a run's request is one Repa wrote for the study loop (a draft, a quiz, a grade of a quiz
 * answer or a tutor check, spec R105, R109, R114), read by the parsers of its own formats.
 */
export function isStudyRequest(text: string): boolean {
  return [parseDraftRequest, parseQuizRequest, parseGradeRequest].some(
    (parse) => parse(text) !== undefined,
  );
}
