import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type EndpointReply, type OpenAiEndpoint, startOpenAiEndpoint } from '@repa/fixtures';
import type { V1Params } from '@repa/protocol';
import { repaErrorOf } from '@repa/protocol/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepaApplication } from './repa-application.js';
import { tempAppDirectory } from './test/builders.js';
import { ended, listener, request } from './test/run-listener.js';

// Spec R114: a tutor check through the application's handlers, on a scripted OpenAI-protocol
// endpoint: the tutor reads a note and cites it; the learner's answer is graded by a run of its
// own against the cited lines, with a hint and a second try, and the final grade is one `answer`
// entry of the study log.

const CELLS = '# Cells\n\nATP is the energy currency of the cell.\nRibosomes build proteins.\n';
const VERSION = createHash('sha256').update(CELLS).digest('hex');
const ASKED = 'What is ATP? See notes/cells.md';
const MODEL = { model: 'test/plain' };
const AGAIN = 'Grade: Again\nMissing: "energy currency"';
const GOOD = 'Grade: Good\nMissing: nothing';

let endpoint: OpenAiEndpoint;
beforeAll(async () => {
  endpoint = await startOpenAiEndpoint([{ kind: 'text', text: 'Done.' }]);
});
afterAll(() => endpoint.close());

/** The endpoint's next replies, in order. */
const script = (...replies: EndpointReply[]) => {
  endpoint.replies = replies;
};
/** The tutor's turn: a read of the note, then a question back citing line 3 with `quote`. */
const tutorTurn = (quote: string) =>
  script(
    { kind: 'tools', calls: [{ name: 'read', arguments: { path: 'notes/cells.md' } }] },
    {
      kind: 'text',
      text: `What do you think ATP does? Reread [notes/cells.md:3 "${quote}"] and tell me.`,
    },
  );

async function openApplication() {
  const base = tempAppDirectory();
  const space = join(base, 'space');
  mkdirSync(join(space, 'notes'), { recursive: true });
  mkdirSync(join(base, 'agent'));
  writeFileSync(join(space, 'notes/cells.md'), CELLS);
  endpoint.configure(join(base, 'agent'));
  const app = await RepaApplication.open({
    appDirectory: join(base, 'app'),
    agentDir: join(base, 'agent'),
  });
  const created = await request(app, 'session.create', { space });
  return { app, space, sessionId: created.session.sessionId };
}

type Opened = Awaited<ReturnType<typeof openApplication>>;

/** A run of `text` in the session, followed to its end (tutor mode unless `mode` says otherwise). */
async function ask({ app, space, sessionId }: Opened, text: string, mode = 'tutor') {
  const { connection, events, next } = listener();
  const { run } = await app.submit(
    {
      space,
      sessionId,
      requestId: `ask-${Math.random()}`,
      input: { type: 'text', text },
      overrides: { ...MODEL, studyMode: mode as 'tutor' | 'answer' },
    },
    connection,
  );
  return ended(app, run.runId, events, next);
}

/** One check (`study.check`) graded `grade` by the endpoint, followed to `study.graded`. */
async function check(
  app: RepaApplication,
  params: Omit<V1Params<'study.check'>, 'requestId'>,
  grade: string,
) {
  script({ kind: 'text', text: grade });
  const { connection, events, next } = listener();
  const handler = app.handlers()['study.check'];
  if (!handler) throw new Error('study.check is not handled');
  const requestId = `check-${Math.random()}`;
  const { run } = await handler({ ...params, requestId, overrides: MODEL }, connection);
  const done = await ended(app, run.runId, events, next);
  expect(done.status).toBe('succeeded');
  return { run: done, graded: await request(app, 'study.graded', { runId: done.runId }) };
}

/** The study log's entries. */
const studyLog = (space: string) =>
  readFileSync(join(space, '.repa/study/reviews.log'), 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line.slice(9)) as Record<string, unknown>);

describe('study.check', () => {
  it("grades answers to a tutor's reply against its verified passage, with a hint and a second try, and records each final grade with origin tutor", async () => {
    const opened = await openApplication();
    const { app, space, sessionId } = opened;
    tutorTurn('ATP is the');
    const tutor = await ask(opened, ASKED);
    expect(tutor.citations?.[0]).toMatchObject({ status: 'verified', startLine: 3 });

    const first = await check(app, { runId: tutor.runId, answer: 'it stores sugar' }, AGAIN);
    expect(first.graded).toMatchObject({
      tutor: tutor.runId,
      citation: 1,
      attempt: 1,
      grade: 1,
      missing: 'energy currency',
      final: false,
      hint: 'You missed 2 words of the passage: "e…" (6 letters), "c…" (8 letters).',
      answer: null,
      passage: null,
    });
    expect(first.graded.quiz).toBeUndefined();
    // The grade run: a session of its own, no editing tool, the cited lines in its request.
    expect(first.run.sessionId).not.toBe(sessionId);
    expect(first.run.modelSettings?.edits).toBe('off');
    expect(first.run.input.text).toContain(
      'Passage (notes/cells.md:3): "ATP is the energy currency of the cell."',
    );
    const second = await check(
      app,
      { runId: tutor.runId, answer: 'the energy currency', after: first.run.runId },
      GOOD,
    );
    expect(second.run.sessionId).toBe(first.run.sessionId);
    expect(second.graded).toMatchObject({
      attempt: 2,
      grade: 3,
      final: true,
      answer: {
        help: 'hint',
        answers: ['it stores sugar', 'the energy currency'],
        version: VERSION,
      },
      passage: { cite: 'notes/cells.md:3', quote: 'ATP is the energy currency of the cell.' },
    });
    const twice = await check(app, { runId: tutor.runId, answer: 'sugar' }, AGAIN);
    const wrong = await check(
      app,
      { runId: tutor.runId, answer: 'fat', after: twice.run.runId },
      AGAIN,
    );
    expect(wrong.graded).toMatchObject({ final: true, answer: { help: 'passage' } });
    const once = await check(app, { runId: tutor.runId, answer: 'energy currency' }, GOOD);
    expect(once.graded).toMatchObject({ attempt: 1, final: true, answer: { help: 'none' } });

    const answers = studyLog(space).filter((entry) => entry.kind === 'answer');
    expect(answers).toHaveLength(3);
    expect(answers[0]).toMatchObject({
      origin: 'tutor',
      set: tutor.runId,
      question: ASKED,
      cite: 'notes/cells.md:3',
      source: 'notes/cells.md',
      version: VERSION,
      answers: ['it stores sugar', 'the energy currency'],
      grade: 3,
      help: 'hint',
      grader: 'test/plain',
    });
    expect(answers.map((entry) => entry.help)).toEqual(['hint', 'passage', 'none']);
    // The tutor's conversation holds none of Repa's grade requests, and stays the space's latest
    // session although the checks' sessions changed after it.
    const history = await request(app, 'session.history', { space, sessionId });
    expect(JSON.stringify(history.items)).not.toContain('Grade the answer');
    const latest = await request(app, 'session.resolve', { space, session: 'latest' });
    expect(latest.session.sessionId).toBe(sessionId);
    // Progress counts the tutor's answers as it counts a quiz's; an override stands beside one.
    const status = await request(app, 'study.status', { space });
    expect(status.sources).toMatchObject([
      {
        source: 'notes/cells.md',
        version: VERSION,
        answers: {
          none: { good: 1 },
          hint: { good: 1 },
          passage: { again: 1 },
        },
      },
    ]);
    const own = await request(app, 'study.override', {
      space,
      answer: wrong.graded.answer?.id ?? '',
      grade: 2,
    });
    expect(own).toMatchObject({ given: 1, grade: 2 });
    await app.close();
  });

  it("refuses a run not in tutor mode, a failed run, a reply with only a forged citation, a second try that is none, Repa's own study request, and a changed source; grades untutored", async () => {
    const opened = await openApplication();
    const { app, space } = opened;
    const checking = (params: Omit<V1Params<'study.check'>, 'requestId'>) =>
      repaErrorOf(
        request(app, 'study.check', { ...params, requestId: `refused-${Math.random()}` }),
      );

    tutorTurn('ATP is the');
    const answered = await ask(opened, ASKED, 'answer');
    const notTutor = await checking({ runId: answered.runId, answer: 'energy currency' });
    expect(notTutor.code).toBe('invalid_request');
    expect(notTutor.message).toContain('was not in tutor mode (study.mode answer)');
    expect(notTutor.fix).toContain('Turn tutor mode on');

    script({ kind: 'status', status: 400, message: 'scripted failure' });
    const failed = await ask(opened, 'fail now');
    expect(failed.status).toBe('failed');
    const unfinished = await checking({ runId: failed.runId, answer: 'energy currency' });
    expect(unfinished.code).toBe('invalid_request');
    expect(unfinished.message).toBe(
      `Tutor run ${failed.runId} failed: it gave no reply to check an answer against.`,
    );

    tutorTurn('ATP is glucose');
    const forged = await ask(opened, ASKED);
    expect(forged.citations?.[0]?.status).toBe('quote_not_found');
    const unverified = await checking({ runId: forged.runId, answer: 'energy currency' });
    expect(unverified.code).toBe('invalid_request');
    expect(unverified.message).toContain('cites no passage Repa verified');
    expect(unverified.fix).toContain('Ask the tutor which passage to reread');
    const named = await checking({ runId: forged.runId, answer: 'x', citation: 1 });
    expect(named.message).toContain("Citation 1 of the tutor's reply (run");
    expect(named.message).toContain('are not in notes/cells.md, line 3');

    tutorTurn('ATP is the');
    const tutor = await ask(opened, ASKED);
    // Tutor mode for the whole space: Repa's grade run is still answered as asked, not tutored.
    await request(app, 'settings.set', {
      space,
      level: 'space',
      key: 'study.mode',
      value: 'tutor',
    });
    const right = await check(app, { runId: tutor.runId, answer: 'energy currency' }, GOOD);
    expect(right.run.modelSettings?.studyMode).toBe('answer');
    const after = await checking({ runId: tutor.runId, answer: 'x', after: right.run.runId });
    expect(after.message).toContain('already stands');

    // A run of Repa's own study request in tutor mode is no question to the tutor.
    tutorTurn('ATP is the');
    const own = await ask(opened, right.run.input.text);
    expect(own.modelSettings?.studyMode).toBe('tutor');
    const notAsked = await checking({ runId: own.runId, answer: 'energy currency' });
    expect(notAsked.code).toBe('invalid_request');
    expect(notAsked.message).toContain("is Repa's own study request");

    writeFileSync(join(space, 'notes/cells.md'), CELLS.replace('energy', 'power'));
    const changed = await checking({ runId: tutor.runId, answer: 'energy currency' });
    expect(changed.code).toBe('invalid_request');
    expect(changed.message).toContain('notes/cells.md changed since the run read it');
    expect(changed.fix).toContain('Ask the tutor again');
    await app.close();
  });
});
