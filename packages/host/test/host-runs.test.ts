import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  fauxAssistantMessage,
  fauxToolCall,
  getCurrentSystemPrompt,
  type TranscriptContext,
} from '@earendil-works/pi-ai';
import { estimateTokens } from '@earendil-works/pi-coding-agent';
import { type LearningContextView, writeLearningContext } from '@repa/context';
import type { PromptSettings, RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { createFauxHost } from '../src/testing/index.js';
import { textOf } from './transcript-text.js';

/** A message of Pi's model context, as `estimateTokens` takes it. */
type AgentMessage = Parameters<typeof estimateTokens>[0];

const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };

/** Makes `<space>/.repa/learning-context.json` a FIFO: a read of it blocks until a writer opens it. */
/** A learning-context read that stays pending until released (the host's test seam). */
function heldLearningContext(): {
  reader: () => Promise<LearningContextView | null>;
  release: () => Promise<void>;
} {
  let resolve = (_view: LearningContextView | null) => {};
  const pending = new Promise<LearningContextView | null>((done) => {
    resolve = done;
  });
  return {
    reader: () => pending,
    release: async () => resolve({ revision: '1', body: 'Held context.', sources: [] }),
  };
}

describe('PiConversationHost runs', () => {
  describe('run start (R66)', () => {
    it('is busy and cancellable while the learning context is still being read', async () => {
      const held = heldLearningContext();
      const { host, faux } = await createFauxHost({ learningContextReader: held.reader });
      faux.setResponses([fauxAssistantMessage('should never be asked')]);
      const running = host.send('hi', defaults);
      expect(host.busy).toBe(true);
      await host.cancel();
      await held.release();
      const outcome = await running;
      expect(outcome).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
      expect(faux.state.callCount).toBe(0);
      expect(host.busy).toBe(false);
      host.dispose();
    });
  });

  describe('prompt report (R10)', () => {
    it('names the level each setting came from in the section reasons', async () => {
      const { host, faux } = await createFauxHost();
      faux.setResponses([fauxAssistantMessage('ok')]);
      const outcome = await host.send(
        'hi',
        { ...defaults, append: 'SPACE APPEND', fileChanges: 'off' },
        {
          sources: {
            base: 'default',
            append: 'space',
            environment: 'default',
            learningContext: 'session',
            fileChanges: 'application',
          },
        },
      );
      const reasons = Object.fromEntries(
        (outcome.prompt?.report ?? []).map((section) => [section.name, section.reason]),
      );
      expect(reasons).toMatchObject({
        append: 'set by space override',
        environment:
          'enabled by default; learning context on by session override; study summary on',
        fileChanges: 'off by application override',
      });
      host.dispose();
    });
  });

  describe('file changes between runs (R50)', () => {
    it('puts the notice before the new user message', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      writeFileSync(join(space, 'a.md'), 'alpha\n');
      faux.setResponses([
        fauxAssistantMessage([fauxToolCall('read', { path: 'a.md' })], { stopReason: 'toolUse' }),
        fauxAssistantMessage('read it'),
        fauxAssistantMessage('noted'),
      ]);
      const settings: PromptSettings = { ...defaults, fileChanges: 'notice' };
      await host.send('read a', settings);
      writeFileSync(join(space, 'a.md'), 'alpha changed between runs\n');
      const events: RunEvent[] = [];
      await host.send('what now?', settings, { onEvent: (event) => events.push(event) });
      expect(requests).toHaveLength(3);
      const texts = (requests[2] as TranscriptContext).messages
        .filter((message) => message.role !== 'system')
        .map(textOf);
      const notice = texts.findIndex((text) => text.includes('changed on disk'));
      expect(notice).toBeGreaterThanOrEqual(0);
      expect(texts[notice]).toContain('a.md');
      expect(texts.indexOf('what now?')).toBe(notice + 1);
      expect(texts.at(-1)).toBe('what now?');
      expect(events.filter((event) => event.type === 'file-change-notice')).toHaveLength(1);
      host.dispose();
    });
  });

  describe('context size (R43–R45)', () => {
    it('estimates the request with Repa’s prompt, as the provider received it', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      await writeLearningContext(space, { body: 'Cells divide by mitosis.', sources: [] });
      writeFileSync(join(space, 'a.md'), 'alpha\n');
      const estimates: (number | null | undefined)[] = [];
      const estimateNow = () => estimates.push(host.session.getContextUsage()?.tokens);
      faux.setResponses([
        () => {
          estimateNow();
          return fauxAssistantMessage([fauxToolCall('read', { path: 'a.md' })], {
            stopReason: 'toolUse',
          });
        },
        () => fauxAssistantMessage('done'),
      ]);
      const outcome = await host.send('read a', { ...defaults, append: 'REPA APPEND' });
      expect(outcome.status).toBe('succeeded');
      const [first] = requests as [TranscriptContext];
      expect(getCurrentSystemPrompt(first.messages)).toBe(outcome.prompt?.text);
      // Pi's own estimate (no provider usage yet) over the projection, against chars/4 of what
      // the provider received, message by message as Pi counts.
      const received = first.messages.reduce(
        (sum, message) => sum + estimateTokens(message as AgentMessage),
        0,
      );
      expect(estimates).toEqual([received]);
      host.dispose();
    });

    it('reports estimatedTokensAfter of a compaction with Repa’s prompt, as next sent', async () => {
      const { host, faux, requests } = await createFauxHost();
      faux.setResponses([fauxAssistantMessage('one'), fauxAssistantMessage('two')]);
      await host.send('first question', defaults);
      await host.send('second question', defaults);
      faux.setResponses([fauxAssistantMessage('Summary.'), fauxAssistantMessage('Prefix.')]);
      const result = await host.session.compact();
      const rest = host.session.sessionManager
        .buildSessionProjection()
        .messages.filter((message) => message.role !== 'system');
      faux.setResponses([fauxAssistantMessage('after')]);
      await host.send('third question', defaults);
      const [system] = (requests.at(-1) as TranscriptContext).messages;
      expect(system?.role).toBe('system');
      // Pi's estimate after compacting: the system message as the provider then received it, plus
      // the rest of the projection (Pi counts its summary without the wrapper it sends).
      expect(result.estimatedTokensAfter).toBe(
        estimateTokens(system as AgentMessage) +
          rest.reduce((sum, message) => sum + estimateTokens(message), 0),
      );
      host.dispose();
    });

    it('writes no extra system entries, also across tool follow-up turns', async () => {
      const { host, faux, space } = await createFauxHost();
      writeFileSync(join(space, 'a.md'), 'alpha\n');
      const read = () =>
        fauxAssistantMessage([fauxToolCall('read', { path: 'a.md' })], { stopReason: 'toolUse' });
      faux.setResponses([read(), fauxAssistantMessage('one'), read(), fauxAssistantMessage('two')]);
      const roles = () =>
        host.session.sessionManager
          .getEntries()
          .flatMap((entry) => (entry.type === 'message' ? [entry.message.role] : []));
      await host.send('first', defaults);
      await host.send('second', defaults);
      // Pi declares its prompt and tools once; the projection's Repa prompt makes Pi re-declare
      // them before each follow-up turn, which must not reach the raw session.
      expect(roles()).toEqual([
        'system',
        ...['user', 'assistant', 'toolResult', 'assistant'],
        ...['user', 'assistant', 'toolResult', 'assistant'],
      ]);
      host.dispose();
    });
  });

  describe('errors', () => {
    it('reports a provider error reply as model_error with the provider’s message', async () => {
      const { host, faux } = await createFauxHost();
      faux.setResponses([
        fauxAssistantMessage('', { stopReason: 'error', errorMessage: '400 unknown parameter' }),
      ]);
      const outcome = await host.send('hi', defaults);
      expect(outcome.status).toBe('failed');
      expect(outcome.error).toMatchObject({
        code: 'model_error',
        message: '400 unknown parameter',
      });
      expect(outcome.error?.fix).not.toContain('bug in Repa');
      host.dispose();
    });

    it('reports a 429 reply (retries off) as rate_limited with the provider’s message', async () => {
      const { host, faux } = await createFauxHost();
      faux.setResponses([
        fauxAssistantMessage('', { stopReason: 'error', errorMessage: '429 rate limited' }),
      ]);
      const outcome = await host.send('hi', defaults);
      expect(outcome.status).toBe('failed');
      expect(outcome.error?.code).toBe('rate_limited');
      expect(outcome.error?.message).toContain('429 rate limited');
      expect(outcome.error?.fix).not.toContain('bug in Repa');
      host.dispose();
    });
  });
});
