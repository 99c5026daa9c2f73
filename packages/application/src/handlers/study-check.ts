import { gradeRequestText } from '@repa/content';
import { loadHost } from '../load-host.js';
import type { NamespaceHandlers } from '../server/repa-handlers.js';
import { firstTryOf, tutorCheckOf } from './grade-runs.js';
import type { HandlerParts } from './handler-parts.js';
import { studyRunOverrides } from './study-runs.js';

type StudyCheckHandlers = Pick<NamespaceHandlers<'study'>, 'study.check'>;

/**
 * `study.check` (spec R114): the learner's answer to a tutor's reply, graded as a quiz answer is
 * (read with `study.graded`) against a passage the reply cites and Repa verified. The grade run
 * goes into a session of its own (a second try into its first try's), so Repa's grade request
 * never enters the tutor's conversation and the conversation never reaches the grade.
 */
export function studyCheckHandlers(parts: HandlerParts): StudyCheckHandlers {
  const { ledger, runs, trust } = parts;
  /** A new session of the space for a tutor check's grade runs, as `session.create` makes one. */
  const newCheckSession = async (space: string, cite: string): Promise<string> => {
    const session = await (await loadHost()).createSpaceSession(space, `tutor check ${cite}`);
    trust.addSession(space, session.sessionId);
    return session.sessionId;
  };
  return {
    'study.check': async (params, connection) => {
      const { tutor, passage, asked } = await tutorCheckOf(parts, params.runId, params.citation);
      const first =
        params.after === undefined
          ? undefined
          : firstTryOf(
              ledger,
              params.after,
              (one) =>
                'tutor' in one && one.tutor === tutor.runId && one.citation === passage.index,
              `citation ${passage.index} of tutor run ${tutor.runId}`,
            );
      // A resubmitted request goes where it went; a first try into a session of its own.
      const sessionId =
        ledger.requestedRun(params.requestId)?.sessionId ??
        first?.sessionId ??
        (await newCheckSession(tutor.space, passage.cite));
      const text = gradeRequestText({
        tutor: tutor.runId,
        citation: passage.index,
        ...(params.after === undefined ? {} : { after: params.after }),
        cite: passage.cite,
        passage: passage.quote,
        asked,
        answer: params.answer,
      });
      return runs.submit(
        {
          space: tutor.space,
          sessionId,
          requestId: params.requestId,
          input: { type: 'text', text },
          overrides: studyRunOverrides(params.overrides, { grade: true }),
        },
        connection,
      );
    },
  };
}
