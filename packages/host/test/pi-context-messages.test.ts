// Spec R91: the real Pi 0.87.1 SDK with Pi's faux provider, for what Repa adds to the history the
// model is sent: the learning context's snapshot, compaction on request and file changes (the
// prompt and tools are in pi-context-integration.test.ts). What the model was told is read through
// Pi's own transcript helpers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getCurrentSystemPrompt, type TranscriptContext } from '@earendil-works/pi-ai';
import { writeLearningContext } from '@repa/context';
import type { PromptSettings, RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { createFauxHost } from '../src/testing/index.js';
import { reply, toolCall } from './faux-replies.js';
import { textOf, userTexts } from './transcript-text.js';

const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };

describe('PiConversationHost on the real Pi SDK', () => {
  describe('learning context (R30–R33, R41, R42)', () => {
    it('appends a snapshot before the user message once, and again only after a change', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      await writeLearningContext(space, {
        body: 'Cells divide by mitosis.',
        sources: ['notes/cells.md'],
      });
      const events: RunEvent[] = [];
      faux.setResponses([reply('one'), reply('two'), reply('three')]);
      await host.send('first', defaults, { onEvent: (event) => events.push(event) });
      await host.send('second', defaults);
      await writeLearningContext(space, {
        body: 'Cells divide by mitosis and meiosis.',
        sources: ['notes/cells.md'],
      });
      await host.send('third', defaults);
      const snapshotsIn = (request: TranscriptContext) =>
        userTexts(request).filter((text) => text.includes('<learning-context>'));
      expect(snapshotsIn(requests[0] as TranscriptContext)).toHaveLength(1);
      expect(snapshotsIn(requests[1] as TranscriptContext)).toHaveLength(1);
      expect(snapshotsIn(requests[2] as TranscriptContext)).toHaveLength(2);
      expect(userTexts(requests[0] as TranscriptContext)).toEqual([
        expect.stringContaining('Cells divide by mitosis.'),
        'first',
      ]);
      expect(events).toContainEqual({
        type: 'context-snapshot',
        revision: '1',
        chars: 24,
        sources: ['notes/cells.md'],
      });
      host.dispose();
    });

    it('removes the learning context when the source is off and brings it back when on', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      await writeLearningContext(space, { body: 'Mitosis.', sources: [] });
      faux.setResponses([reply('a'), reply('b'), reply('c')]);
      await host.send('on', defaults);
      await host.send('off', { ...defaults, learningContext: false });
      await host.send('on again', defaults);
      const has = (request: TranscriptContext) =>
        userTexts(request).some((text) => text.includes('<learning-context>'));
      expect(requests.map((request) => has(request))).toEqual([true, false, true]);
      host.dispose();
    });

    it('fails the run before the user message enters history when the context is unreadable', async () => {
      const { host, space } = await createFauxHost();
      await writeLearningContext(space, { body: 'x', sources: [] });
      writeFileSync(join(space, '.repa', 'learning-context.json'), '{ broken');
      const before = host.session.sessionManager.getEntries().length;
      const outcome = await host.send('hello', defaults);
      expect(outcome).toMatchObject({ status: 'failed', error: { code: 'context_unavailable' } });
      expect(host.session.sessionManager.getEntries()).toHaveLength(before);
      host.dispose();
    });

    it('keeps the run-entry prompt and context for tool follow-up turns (R33)', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      await writeLearningContext(space, { body: 'Version one.', sources: [] });
      writeFileSync(join(space, 'a.md'), 'alpha\n');
      faux.setResponses([
        async () => {
          // Mid-run, the space's context changes: this run keeps its entry context.
          await writeLearningContext(space, { body: 'Version two.', sources: [] });
          return toolCall('read', { path: 'a.md' });
        },
        reply('done'),
        reply('next run'),
      ]);
      await host.send('read a', defaults);
      await host.send('again', defaults);
      const [first, second, third] = requests as [
        TranscriptContext,
        TranscriptContext,
        TranscriptContext,
      ];
      expect(getCurrentSystemPrompt(second.messages)).toBe(getCurrentSystemPrompt(first.messages));
      expect(userTexts(second).join('\n')).not.toContain('Version two.');
      expect(userTexts(third).join('\n')).toContain('Version two.');
      host.dispose();
    });

    it('backfills the snapshot right after the compaction summary', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      await writeLearningContext(space, {
        body: 'Photosynthesis basics.',
        sources: ['notes/p.md'],
      });
      faux.setResponses([reply('one'), reply('two'), reply('three')]);
      await host.send('first question', defaults);
      await host.send('second question', defaults);
      // Pi may summarise a split turn with a second call; then the queue is replaced.
      faux.setResponses([reply('Summary: photosynthesis questions.'), reply('Turn prefix.')]);
      await host.session.compact();
      faux.setResponses([reply('after')]);
      await host.send('third question', defaults);
      const last = requests.at(-1) as TranscriptContext;
      const texts = last.messages.filter((message) => message.role !== 'system').map(textOf);
      const summaryAt = texts.findIndex((text) =>
        text.includes('Summary: photosynthesis questions.'),
      );
      expect(summaryAt).toBeGreaterThanOrEqual(0);
      expect(texts[summaryAt + 1]).toContain('Photosynthesis basics.');
      expect(texts.filter((text) => text.includes('<learning-context>'))).toHaveLength(1);
      host.dispose();
    });
  });

  describe('compaction on request (R73, R42, R46)', () => {
    it('summarises with the given instructions, and the next run still gets the learning context', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      await writeLearningContext(space, { body: 'Photosynthesis basics.', sources: [] });
      faux.setResponses([reply('one'), reply('two')]);
      await host.send('first question', defaults);
      await host.send('second question', defaults);
      faux.setResponses([reply('Summary: plants.'), reply('Turn prefix.')]);
      const before = requests.length;
      const outcome = await host.compact('Keep every open question.', defaults);
      expect(outcome.summary).toContain('Summary: plants.');
      expect(outcome.tokensBefore).toBeGreaterThan(0);
      const summaryRequest = requests[before] as TranscriptContext;
      expect(userTexts(summaryRequest).join('\n')).toContain('Keep every open question.');
      faux.setResponses([reply('after')]);
      await host.send('third question', defaults);
      const texts = (requests.at(-1) as TranscriptContext).messages
        .filter((message) => message.role !== 'system')
        .map(textOf);
      const summaryAt = texts.findIndex((text) => text.includes('Summary: plants.'));
      expect(summaryAt).toBeGreaterThanOrEqual(0);
      expect(texts[summaryAt + 1]).toContain('Photosynthesis basics.');
      host.dispose();
    });

    it('leaves a source switched off for the compaction out of the summary input', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      await writeLearningContext(space, { body: 'Photosynthesis basics.', sources: [] });
      faux.setResponses([reply('one'), reply('two')]);
      await host.send('first question', defaults);
      await host.send('second question', defaults);
      faux.setResponses([reply('Summary.'), reply('Turn prefix.')]);
      const before = requests.length;
      await host.compact(undefined, { ...defaults, learningContext: false });
      const summaryInput = requests.slice(before).flatMap(userTexts).join('\n');
      expect(summaryInput).toContain('first question');
      expect(summaryInput).not.toContain('Photosynthesis basics.');
      host.dispose();
    });
  });

  describe('file changes (R50–R53)', () => {
    it('tells the very next request about a file changed between two tool calls', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      writeFileSync(join(space, 'a.md'), 'alpha\n');
      writeFileSync(join(space, 'b.md'), 'beta\n');
      faux.setResponses([
        toolCall('read', { path: 'a.md' }),
        () => {
          writeFileSync(join(space, 'a.md'), 'alpha changed outside\n');
          return toolCall('read', { path: 'b.md' });
        },
        reply('noted'),
      ]);
      const events: RunEvent[] = [];
      await host.send(
        'read both',
        { ...defaults, fileChanges: 'notice' },
        { onEvent: (e) => events.push(e) },
      );
      expect(requests).toHaveLength(3);
      const notice = (request: TranscriptContext) =>
        userTexts(request).filter((text) => text.includes('changed on disk'));
      expect(notice(requests[1] as TranscriptContext)).toEqual([]);
      expect(notice(requests[2] as TranscriptContext)).toEqual([expect.stringContaining('a.md')]);
      expect(events.filter((event) => event.type === 'file-change-notice')).toHaveLength(1);
      host.dispose();
    });

    it('does not report the agent’s own saves, and saving never starts the model (R51, R53)', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      writeFileSync(join(space, 'a.md'), 'alpha\n');
      faux.setResponses([
        toolCall('read', { path: 'a.md' }),
        toolCall('edit', { path: 'a.md', edits: [{ oldText: 'alpha', newText: 'omega' }] }),
        reply('edited'),
      ]);
      const events: RunEvent[] = [];
      const outcome = await host.send(
        'edit',
        { ...defaults, fileChanges: 'diff' },
        { onEvent: (e) => events.push(e) },
      );
      expect(outcome.status).toBe('succeeded');
      expect(readFileSync(join(space, 'a.md'), 'utf8')).toBe('omega\n');
      await host.session.waitForIdle();
      // Every provider request counts here, scripted or not (an unscripted one would be an error
      // reply the recorded steps never see): the read, the edit and the final reply, no more.
      expect(faux.state.callCount).toBe(3);
      expect(requests).toHaveLength(3);
      expect(userTexts(requests[2] as TranscriptContext).join('\n')).not.toContain(
        'changed on disk',
      );
      const end = events.find((event) => event.type === 'tool-end' && event.toolName === 'edit');
      expect(end).toMatchObject({ isError: false, receipts: [{ target: 'a.md' }] });
      host.dispose();
    });
  });
});
