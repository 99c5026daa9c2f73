import { expect } from 'vitest';
import type { Json } from './conformance-kit.js';

/** What the tutor check part of the conformance drive needs of its test. */
interface CheckDrive {
  call(method: string, params: unknown): Promise<Json>;
  ended(runId: string): Promise<unknown>;
  space: string;
  sessionId: string;
}

/**
 * `study.check` driven on the offline model: a tutor run cites notes/a.md, an answer to it is
 * graded against the cited line (read back with `study.graded`).
 */
export async function driveTutorCheck({ call, ended, space, sessionId }: CheckDrive) {
  const tutor = (await call('run.submit', {
    space,
    sessionId,
    requestId: 'conformance-tutor',
    input: { type: 'text', text: 'How often does the tide turn? See notes/a.md' },
    overrides: { studyMode: 'tutor' },
  })) as { run: { runId: string } };
  await ended(tutor.run.runId);
  const checked = (await call('study.check', {
    runId: tutor.run.runId,
    answer: 'it turns every six hours',
    requestId: 'conformance-check',
  })) as { run: { runId: string } };
  await ended(checked.run.runId);
  expect(await call('study.graded', { runId: checked.run.runId })).toMatchObject({
    tutor: tutor.run.runId,
    citation: 1,
    final: true,
    grader: 'passage-words',
    passage: { cite: 'notes/a.md:3', quote: 'The tide turns every six hours.' },
  });
}
