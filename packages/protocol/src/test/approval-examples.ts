/** A valid example of `run.approve` (`tools.edits` `ask`). */
export const approvalExamples = {
  'run.approve': {
    params: { runId: 'r1', approvalId: 'a1', answer: 'refuse', reason: 'Keep my wording.' },
    result: {
      approval: {
        approvalId: 'a1',
        toolCallId: 'call_0',
        toolName: 'write',
        targets: ['notes/a.md'],
        decision: 'refused',
        reason: 'Keep my wording.',
        requestedAt: '2026-01-01T00:00:00.000Z',
        answeredAt: '2026-01-01T00:00:01.000Z',
      },
      answered: true,
    },
  },
};

/** A malformed `run.approve`, with the path zod must name. */
export const approvalMalformed = {
  'run.approve': {
    params: { runId: 'r1', approvalId: 'a1', answer: 'yes' },
    path: 'params.answer',
  },
};
