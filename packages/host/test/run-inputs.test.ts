import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fauxAssistantMessage, fauxToolCall } from '@earendil-works/pi-ai';
import { type PromptSettings, RepaError, type RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { checkRunInput } from '../src/run-inputs.js';
import { RESUME_NOTE } from '../src/sessions/run-marks.js';
import { createFauxHost } from '../src/testing/index.js';
import { heldStep } from './faux-replies.js';
import { turns } from './transcript-text.js';

const settings: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS, learningContext: false };
const withContext: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };
// A 1×1 PNG.
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('run inputs on the faux provider', () => {
  describe('steer (R70)', () => {
    it('reaches the model at the next turn boundary: after the tool results, before the next call', async () => {
      const { host, faux, requests } = await createFauxHost();
      const held = heldStep(
        fauxAssistantMessage([fauxToolCall('ls', { path: '.' })], { stopReason: 'toolUse' }),
      );
      faux.setResponses([held.step, fauxAssistantMessage('Done, with notes only.')]);
      const events: RunEvent[] = [];
      const running = host.send('List the files.', settings, {
        onEvent: (event) => events.push(event),
      });
      await held.arrived;
      const delivered = host.deliver('steer', 'Only look at notes.', { requestRunId: 'steer-1' });
      held.release();
      await delivered;
      const outcome = await running;

      expect(outcome).toMatchObject({ status: 'succeeded', output: 'Done, with notes only.' });
      expect(requests).toHaveLength(2);
      expect(turns(requests[0]).map((turn) => turn.text)).not.toContain('Only look at notes.');
      expect(turns(requests[1]).map((turn) => turn.role)).toEqual([
        'user',
        'assistant',
        'toolResult',
        'user',
      ]);
      expect(turns(requests[1]).at(-1)?.text).toBe('Only look at notes.');
      expect(events).toContainEqual({
        type: 'steer-delivered',
        text: 'Only look at notes.',
        requestRunId: 'steer-1',
      });
      host.dispose();
    });

    it('records a /skill: steer delivered though Pi expands its text', async () => {
      const base = mkdtempSync(join(tmpdir(), 'repa-skill-steer-'));
      const agentDir = join(base, 'agent');
      mkdirSync(join(agentDir, 'skills', 'tidy'), { recursive: true });
      writeFileSync(
        join(agentDir, 'skills', 'tidy', 'SKILL.md'),
        '---\nname: tidy\ndescription: Keep answers tidy.\n---\nAnswer in one short sentence.\n',
      );
      const { host, faux, requests } = await createFauxHost({ agentDir });
      const held = heldStep(
        fauxAssistantMessage([fauxToolCall('ls', { path: '.' })], { stopReason: 'toolUse' }),
      );
      faux.setResponses([held.step, fauxAssistantMessage('Tidy.')]);
      const events: RunEvent[] = [];
      const running = host.send('List the files.', settings, {
        onEvent: (event) => events.push(event),
      });
      await held.arrived;
      const delivered = host.deliver('steer', '/skill:tidy and be brief', {
        requestRunId: 'skill-steer',
      });
      held.release();
      await delivered;
      expect((await running).status).toBe('succeeded');
      const steered = turns(requests[1]).at(-1)?.text ?? '';
      expect(steered).toContain('<skill name="tidy"');
      expect(steered).toContain('Answer in one short sentence.');
      expect(events).toContainEqual({
        type: 'steer-delivered',
        text: '/skill:tidy and be brief',
        requestRunId: 'skill-steer',
      });
      host.dispose();
    });

    it('says run_finished when the run ends before the message is delivered, and leaves nothing in Pi queue', async () => {
      const { host, faux, requests } = await createFauxHost();
      const held = heldStep(fauxAssistantMessage('never seen'));
      faux.setResponses([held.step, fauxAssistantMessage('Next answer.')]);
      const running = host.send('Think long.', settings);
      await held.arrived;
      const delivered = host.deliver('steer', 'Change course.', { requestRunId: 'steer-2' });
      const outcomeOfDelivery = delivered.then(
        () => undefined,
        (error: unknown) => error,
      );
      const cancelling = host.cancel();
      held.release();
      await cancelling;
      expect((await running).status).toBe('cancelled');
      expect(await outcomeOfDelivery).toMatchObject({ code: 'run_finished' });
      // The undelivered message does not slip into the next run.
      const next = await host.send('Hello again.', settings);
      expect(next.status).toBe('succeeded');
      expect(turns(requests.at(-1)).map((turn) => turn.text)).not.toContain('Change course.');
      host.dispose();
    });

    it('takes back a message not yet delivered: the model never sees it, the others still arrive', async () => {
      const { host, faux, requests } = await createFauxHost();
      const held = heldStep(
        fauxAssistantMessage([fauxToolCall('ls', { path: '.' })], { stopReason: 'toolUse' }),
      );
      faux.setResponses([held.step, fauxAssistantMessage('Done.')]);
      const running = host.send('List the files.', settings);
      await held.arrived;
      const first = host.deliver('steer', 'Go left.', { requestRunId: 'left' });
      const second = host.deliver('steer', 'Go right.', { requestRunId: 'right' });
      const firstOutcome = first.then(
        () => 'delivered',
        (error: unknown) => error,
      );
      expect(await host.withdraw('left')).toBe(true);
      expect(await host.withdraw('unknown')).toBe(false);
      held.release();
      await second;
      expect((await running).status).toBe('succeeded');
      expect(await firstOutcome).toMatchObject({ code: 'cancelled' });
      const texts = turns(requests[1]).map((turn) => turn.text);
      expect(texts).toContain('Go right.');
      expect(texts).not.toContain('Go left.');
      host.dispose();
    });

    it('is no_active_run when the session has no active run', async () => {
      const { host } = await createFauxHost();
      await expect(
        host.deliver('steer', 'Anyone there?', { requestRunId: 'steer-3' }),
      ).rejects.toMatchObject({ code: 'no_active_run' });
      host.dispose();
    });
  });

  describe('followUp (R70)', () => {
    it('is processed after the current work, inside the same run', async () => {
      const { host, faux, requests } = await createFauxHost();
      const held = heldStep(fauxAssistantMessage('First answer.'));
      faux.setResponses([held.step, fauxAssistantMessage('Second answer.')]);
      const events: RunEvent[] = [];
      const running = host.send('First question.', settings, {
        onEvent: (event) => events.push(event),
      });
      await held.arrived;
      const delivered = host.deliver('followUp', 'And a second question.', {
        requestRunId: 'follow-1',
      });
      held.release();
      await delivered;
      const outcome = await running;

      expect(outcome).toMatchObject({ status: 'succeeded', output: 'Second answer.' });
      expect(requests).toHaveLength(2);
      expect(turns(requests[1])).toEqual([
        { role: 'user', text: 'First question.' },
        { role: 'assistant', text: 'First answer.' },
        { role: 'user', text: 'And a second question.' },
      ]);
      expect(events.filter((event) => event.type === 'follow-up-delivered')).toEqual([
        { type: 'follow-up-delivered', text: 'And a second question.', requestRunId: 'follow-1' },
      ]);
      host.dispose();
    });
  });

  describe('images', () => {
    it('reach the request as image content parts, inline and from a space file', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      mkdirSync(join(space, 'figures'));
      writeFileSync(join(space, 'figures', 'dot.png'), Buffer.from(PNG, 'base64'));
      faux.setResponses([fauxAssistantMessage('Two dots.')]);
      const outcome = await host.send('What are these?', settings, {
        images: [
          { kind: 'data', data: PNG, mimeType: 'image/png' },
          { kind: 'file', path: 'figures/dot.png' },
        ],
      });
      expect(outcome.status).toBe('succeeded');
      const user = requests[0]?.messages.find((message) => message.role === 'user');
      expect(user?.content).toEqual([
        { type: 'text', text: 'What are these?' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
        { type: 'image', data: PNG, mimeType: 'image/png' },
      ]);
      host.dispose();
    });

    it('are refused before acceptance when not an image, mislabelled, or outside the space', async () => {
      const { space, appDirectory } = await createFauxHost();
      writeFileSync(join(space, 'notes.md'), '# not an image\n');
      const check = (input: Parameters<typeof checkRunInput>[2]) =>
        checkRunInput(space, appDirectory, input);
      await expect(
        check({
          type: 'text',
          text: 'x',
          images: [
            { kind: 'data', data: Buffer.from('hello').toString('base64'), mimeType: 'image/png' },
          ],
        }),
      ).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(
        check({
          type: 'text',
          text: 'x',
          images: [{ kind: 'data', data: PNG, mimeType: 'image/jpeg' }],
        }),
      ).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(
        check({ type: 'text', text: 'x', images: [{ kind: 'file', path: 'notes.md' }] }),
      ).rejects.toMatchObject({ code: 'invalid_request' });
      await expect(
        check({ type: 'text', text: 'x', attachments: [{ path: '../outside.md' }] }),
      ).rejects.toMatchObject({ code: 'path_outside_space' });
      await expect(
        check({
          type: 'text',
          text: 'x',
          images: [{ kind: 'data', data: PNG, mimeType: 'image/png' }],
        }),
      ).resolves.toBeUndefined();
    });
  });

  describe('attached documents', () => {
    it('are read at run start, sent with the request and recorded with their versions', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      mkdirSync(join(space, 'notes'));
      writeFileSync(join(space, 'notes', 'tides.md'), 'The tide turns every six hours.\n');
      faux.setResponses([fauxAssistantMessage('Six hours.')]);
      const events: RunEvent[] = [];
      const outcome = await host.send('How often does the tide turn?', settings, {
        attachments: [{ path: 'notes/tides.md' }],
        onEvent: (event) => events.push(event),
      });
      expect(outcome.attachedSources).toHaveLength(1);
      const [source] = outcome.attachedSources ?? [];
      expect(source?.path).toBe('notes/tides.md');
      expect(source?.version).toMatch(/^[0-9a-f]{64}$/);
      const text = turns(requests[0]).find((turn) => turn.role === 'user')?.text ?? '';
      expect(text).toContain('How often does the tide turn?');
      expect(text).toContain(
        `<attached-document path="notes/tides.md" version="${source?.version}">\nThe tide turns every six hours.\n`,
      );
      expect(events).toContainEqual({ type: 'sources-attached', sources: [source] });
      host.dispose();
    });
  });

  describe('resume (R73)', () => {
    /** The original of a resumption, as the application names it. */
    const original = (runId: string, text: string) => ({ runId, text, marked: true });

    it('continues a failed run without repeating the user message or showing the failed reply', async () => {
      const { host, faux, requests } = await createFauxHost();
      faux.setResponses([
        fauxAssistantMessage('', { stopReason: 'error', errorMessage: 'provider exploded' }),
      ]);
      const first = await host.send('Explain tides.', settings, { runId: 'run-a' });
      expect(first.status).toBe('failed');
      faux.setResponses([fauxAssistantMessage('Tides follow the moon.')]);
      const outcome = await host.resume(original('run-a', 'Explain tides.'), settings, {
        runId: 'run-a2',
      });
      expect(outcome).toMatchObject({ status: 'succeeded', output: 'Tides follow the moon.' });
      expect(turns(requests.at(-1))).toEqual([
        { role: 'user', text: 'Explain tides.' },
        { role: 'user', text: RESUME_NOTE },
      ]);
      host.dispose();
    });

    it('continues an interrupted run from the request Pi had saved, in a new host on the same file', async () => {
      const first = await createFauxHost();
      const held = heldStep(fauxAssistantMessage('never delivered'));
      first.faux.setResponses([held.step]);
      void first.host.send('Summarize the notes.', settings, { runId: 'run-a' });
      await held.arrived; // Pi has saved the user message; the daemon "dies" here.
      const second = await createFauxHost({
        space: first.space,
        appDirectory: first.appDirectory,
        sessionFile: first.host.sessionFile,
      });
      second.faux.setResponses([fauxAssistantMessage('Here is the summary.')]);
      const outcome = await second.host.resume(original('run-a', 'Summarize the notes.'), settings);
      expect(outcome).toMatchObject({ status: 'succeeded', output: 'Here is the summary.' });
      expect(turns(second.requests[0])).toEqual([
        { role: 'user', text: 'Summarize the notes.' },
        { role: 'user', text: RESUME_NOTE },
      ]);
      held.release();
      second.host.dispose();
    });

    it('sends the request of a run that failed before its message entered the history, not the run before it', async () => {
      let unreadable = false;
      const { host, faux, requests } = await createFauxHost({
        learningContextReader: async () => {
          if (unreadable) throw new RepaError('context_unavailable', 'Unreadable for a moment.');
          return null;
        },
      });
      faux.setResponses([
        fauxAssistantMessage('', { stopReason: 'error', errorMessage: 'provider exploded' }),
      ]);
      expect((await host.send('Question A.', withContext, { runId: 'run-a' })).status).toBe(
        'failed',
      );
      unreadable = true;
      const b = await host.send('Question B.', withContext, { runId: 'run-b' });
      expect(b.error?.code).toBe('context_unavailable');
      unreadable = false;
      faux.setResponses([fauxAssistantMessage('Answer B.')]);
      const outcome = await host.resume(original('run-b', 'Question B.'), withContext, {
        runId: 'run-b2',
      });
      expect(outcome).toMatchObject({ status: 'succeeded', output: 'Answer B.' });
      expect(requests).toHaveLength(2);
      // A's question once (its failed reply stays), B's request once, no resumption note.
      expect(turns(requests[1]).filter((turn) => turn.role === 'user')).toEqual([
        { role: 'user', text: 'Question A.' },
        { role: 'user', text: 'Question B.' },
      ]);
      // Run A is no longer the last: it cannot be continued over B.
      await expect(
        host.resume(original('run-a', 'Question A.'), withContext, { runId: 'run-a2' }),
      ).rejects.toMatchObject({ code: 'not_last_run', details: { laterRunId: 'run-b2' } });
      host.dispose();
    });

    it('refuses when the history ends with a complete reply', async () => {
      const { host, faux } = await createFauxHost();
      faux.setResponses([fauxAssistantMessage('All done.')]);
      await host.send('Hi.', settings, { runId: 'run-a' });
      expect(await host.resume(original('run-a', 'Hi.'), settings)).toMatchObject({
        status: 'failed',
        error: { code: 'invalid_request' },
      });
      host.dispose();
    });
  });
});
