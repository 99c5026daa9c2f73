// Spec R113: the study summary in the learning context, on the built daemon with a scripted model
// endpoint: in the request while `prompts.studySummary` is on, sent again only when it changes,
// and gone from the next request once the learner turns it off.
import { citedCard, type OpenAiEndpoint } from '@repa/fixtures';
import type { RepaClient, RunInfo, StudyProgress } from '@repa/protocol';
import { repa, writeFiles } from '@repa/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { DONE, useScriptedDaemon } from './commands-sandbox.js';

const scripted = useScriptedDaemon();
const { sandbox } = scripted;
let model: OpenAiEndpoint;
let client: RepaClient;
const CH3 = 'Chapter 3\nATP stores energy.\n';
const HEAD = "Repa's summary of the learner's study progress";

/** Runs `text` in session `sessionId`; resolves to the ended run and the model's request. */
async function run(sessionId: string, text: string) {
  model.replies.splice(0, model.replies.length, DONE);
  const asked = model.requests.length;
  const follower = client.followRun(() =>
    client.request('run.submit', {
      space: sandbox.space,
      sessionId,
      requestId: `r-${Math.random()}`,
      input: { type: 'text', text },
    }),
  );
  for await (const _ of follower) {
    // Drained until the run ends.
  }
  const { run: accepted } = await follower.accepted;
  const ended = (await client.request('run.get', { runId: accepted.runId })).run as RunInfo;
  expect(ended.status).toBe('succeeded');
  return { run: ended, request: JSON.stringify(model.requests[asked]?.messages) };
}

const summaries = (request: string) => request.split(HEAD).length - 1;
const environment = (run: RunInfo) =>
  run.promptSections?.find((section) => section.name === 'environment')?.reason;

beforeAll(async () => {
  model = scripted.endpoint();
  client = scripted.client();
  writeFiles(sandbox.space, {
    'src/ch3.md': CH3,
    'cards/ch3.md': citedCard({
      id: 'cch3energy1',
      front: 'What stores energy?::ATP',
      document: 'src/ch3.md',
      text: CH3,
      from: 2,
    }),
    'cards/hand.md': 'Hand card::never studied\n',
  });
  const rated = await client.request('study.rate', {
    space: sandbox.space,
    card: 'cch3energy1',
    rating: 1,
    now: new Date(Date.now() - 3_600_000).toISOString(),
  });
  expect(rated.card.fsrs.reps).toBe(1);
});

describe('the study summary in the learning context', () => {
  it('is in the request with what is due, what is weak and what was never studied, once while unchanged, and gone when turned off', async () => {
    const { session } = await client.request('session.create', { space: sandbox.space });
    const status = await client.request('study.status', { space: sandbox.space });
    const ch3 = status.sources.find((one) => one.source === 'src/ch3.md') as StudyProgress;

    const first = await run(session.sessionId, 'What should I study next?');
    expect(summaries(first.request)).toBe(1);
    expect(first.request).toContain('- Due now: 2 cards (');
    expect(first.request).toContain(
      `- Weakest: src/ch3.md (recall now ${Math.round((ch3.recall as number) * 100)}%, 1 Again).`,
    );
    expect(first.request).toContain('- Never studied: cards/hand.md (1 card).');
    expect(environment(first.run)).toBe(
      'enabled by default; learning context on by default; study summary on by default',
    );

    // Nothing studied since: the summary is not sent again.
    const second = await run(session.sessionId, 'And then?');
    expect(summaries(second.request)).toBe(1);

    const off = await repa(sandbox, ['settings', 'set', 'prompts.studySummary', 'false']);
    expect(off.code, off.stderr).toBe(0);
    const third = await run(session.sessionId, 'Anything else?');
    expect(summaries(third.request)).toBe(0);
    expect(environment(third.run)).toBe(
      'enabled by default; learning context on by default; study summary off by space override',
    );
  });
});
