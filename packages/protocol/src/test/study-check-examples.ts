/** Valid examples of `study.check`, around a run example. */
export function studyCheckExamples(run: object) {
  return {
    'study.check': {
      params: { runId: 'r1', answer: 'the moon pulls the oceans', citation: 1, requestId: 'q3' },
      result: { run, resubmitted: false },
    },
  } as const;
}

/** Malformed params of `study.check`, with the path zod must name. */
export const studyCheckMalformed = {
  'study.check': {
    params: { runId: 'r1', answer: 'x', citation: 0, requestId: 'q1' },
    path: 'params.citation',
  },
} as const;
