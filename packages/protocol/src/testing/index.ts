import type { RunInfo } from '../v1/wire-types.generated.js';

export { repaErrorOf } from './repa-error-of.js';

/** A valid `RunInfo` as a ledger reports it, for tests; `overrides` replace fields. */
export function runInfo(overrides: Partial<RunInfo> = {}): RunInfo {
  return {
    runId: 'r1',
    requestId: 'q1',
    space: '/spaces/a',
    sessionId: 's1',
    input: { type: 'text', text: 'hello' },
    status: 'running',
    attempt: 1,
    promptSettings: {
      base: null,
      append: '',
      projectInstructions: false,
      skillCatalog: true,
      environment: true,
      learningContext: true,
      fileChanges: 'on-demand',
    },
    settingsRevisions: { application: 0, space: 0, session: 0 },
    acceptedAt: '2026-12-02T10:00:00.000Z',
    ...overrides,
  };
}
