// Spec R108: tutor mode (`study.mode tutor`) on the built daemon, with a scripted model endpoint
// and the offline responder.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EndpointReply, OpenAiEndpoint } from '@repa/fixtures';
import type { RepaClient, RunInfo, RunOverrides } from '@repa/protocol';
import { repa } from '@repa/test-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { DONE, offered, useScriptedDaemon } from './commands-sandbox.js';

const scripted = useScriptedDaemon();
const { sandbox } = scripted;
let model: OpenAiEndpoint;
let client: RepaClient;

/** Runs `text` in a new session of the space with `replies` scripted; resolves to the ended run. */
async function run(text: string, replies: EndpointReply[], overrides?: RunOverrides) {
  model.replies.splice(0, model.replies.length, ...replies, DONE);
  const { session } = await client.request('session.create', { space: sandbox.space });
  const follower = client.followRun(() =>
    client.request('run.submit', {
      space: sandbox.space,
      sessionId: session.sessionId,
      requestId: `r-${Math.random()}`,
      input: { type: 'text', text },
      ...(overrides ? { overrides } : {}),
    }),
  );
  for await (const _ of follower) {
    // Drained until the run ends.
  }
  const { run: accepted } = await follower.accepted;
  return (await client.request('run.get', { runId: accepted.runId })).run;
}

const tutorSection = (run: RunInfo) => run.promptSections?.find((part) => part.name === 'tutor');

beforeAll(() => {
  model = scripted.endpoint();
  client = scripted.client();
  writeFileSync(
    join(sandbox.space, 'notes/moon.md'),
    '# The Moon\n\nThe Moon pulls the oceans toward it, which makes the tides.\n',
  );
});

describe('study.mode tutor set for a space', () => {
  it('offers no saving tool and no bash, refuses a write, and reports the tutor section in', async () => {
    for (const [key, value] of [
      ['tools.bash', 'sandboxed'],
      ['study.mode', 'tutor'],
    ]) {
      const set = await repa(sandbox, ['settings', 'set', key as string, value as string]);
      expect(set.code, set.stderr).toBe(0);
    }
    try {
      const asked = model.requests.length;
      const write = {
        kind: 'tools' as const,
        calls: [{ name: 'write', arguments: { path: 'notes/answer.md', content: 'The answer.' } }],
      };
      const tutored = await run('Why are there tides?', [write]);
      expect(tutored.status).toBe('succeeded');
      const tools = offered(model.requests[asked]);
      expect(tools).toContain('read');
      for (const name of ['write', 'edit', 'apply_patch', 'bash'])
        expect(tools).not.toContain(name);
      expect(JSON.stringify(model.requests[asked]?.messages)).toContain('<tutor>');
      // The write the model attempted anyway was refused by the tool set: nothing on disk.
      const results = JSON.stringify(model.requests[asked + 1]?.messages);
      expect(results).toMatch(/Tool write not found/);
      expect(existsSync(join(sandbox.space, 'notes/answer.md'))).toBe(false);
      expect(tutored.modelSettings?.studyMode).toBe('tutor');
      expect(tutorSection(tutored)).toMatchObject({
        included: true,
        reason: 'study.mode tutor by space override',
      });
      // `runs show` tells the mode and what the model was shown: the tutor section.
      const shown = await repa(sandbox, ['runs', 'show', tutored.runId]);
      expect(shown.stdout).toMatch(/^study {6}tutor mode: no saving tool or bash/m);
      expect(shown.stdout).toMatch(/^prompt .*, tutor \(\d+ chars\)/m);

      // `answer` for one run: the saving tools and bash are back, the section out.
      const again = model.requests.length;
      const answered = await run('Why are there tides?', [], { studyMode: 'answer' });
      expect(answered.modelSettingsSources?.studyMode).toBe('run');
      expect(offered(model.requests[again])).toEqual(
        expect.arrayContaining(['write', 'edit', 'apply_patch', 'bash']),
      );
      expect(tutorSection(answered)).toMatchObject({
        included: false,
        reason: 'study.mode answer for this run',
      });
    } finally {
      await repa(sandbox, ['settings', 'reset', 'study.mode']);
      await repa(sandbox, ['settings', 'reset', 'tools.bash']);
    }
  });

  it('repa-offline answers with a question back and a hint whose citation verifies', async () => {
    const set = await repa(sandbox, ['settings', 'set', 'study.mode', 'tutor']);
    expect(set.code, set.stderr).toBe(0);
    try {
      const asked = model.requests.length;
      const tutored = await run('What makes the tides? See notes/moon.md', [], {
        model: 'repa-offline',
      });
      expect(model.requests.length).toBe(asked);
      // The answer itself (what the Moon does to the oceans) is not given away.
      expect(tutored.output).not.toContain('oceans');
      expect(tutored.output).toBe(
        '[repa-offline] Before I answer: what do you think, and why? Hint: reread the passage of ' +
          'notes/moon.md that begins "The Moon pulls…" [notes/moon.md:3 "The Moon pulls"]. ' +
          'Tell me your answer in your own words and I will ' +
          'check your reasoning against it.',
      );
      expect(tutored.citations).toEqual([
        expect.objectContaining({ document: 'notes/moon.md', startLine: 3, status: 'verified' }),
      ]);
    } finally {
      await repa(sandbox, ['settings', 'reset', 'study.mode']);
    }
  });
});
