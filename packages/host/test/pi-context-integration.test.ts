// Spec R91: the real Pi 0.87.1 SDK with Pi's faux provider; every assertion about what the model
// was told goes through Pi's own transcript helpers (`getCurrentSystemPrompt`, `getCurrentTools`).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  fauxAssistantMessage,
  fauxToolCall,
  getCurrentSystemMessage,
  getCurrentSystemPrompt,
  getCurrentTools,
  type ToolCall,
  type TranscriptContext,
} from '@earendil-works/pi-ai';
import type { ExtensionFactory } from '@earendil-works/pi-coding-agent';
import { writeLearningContext } from '@repa/context';
import { assembleSystemPrompt } from '@repa/prompt';
import type { PromptSettings, RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { createFauxHost } from '../src/testing/index.js';
import { textOf } from './transcript-text.js';

const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };

const userTexts = (request: TranscriptContext) =>
  request.messages.filter((message) => message.role === 'user').map(textOf);

const reply = (text: string) => fauxAssistantMessage(text);
const toolCall = (name: string, args: ToolCall['arguments']) =>
  fauxAssistantMessage([fauxToolCall(name, args)], { stopReason: 'toolUse' });

describe('PiConversationHost on the real Pi SDK', () => {
  describe('system prompt ownership (R34, R35)', () => {
    it('sends exactly the assembled prompt and the content tools on every request', async () => {
      const { host, faux, requests } = await createFauxHost();
      faux.setResponses([reply('hello')]);
      const outcome = await host.send('hi', defaults);
      expect(outcome.status).toBe('succeeded');
      expect(outcome.output).toBe('hello');
      expect(requests).toHaveLength(1);
      const [request] = requests as [TranscriptContext];
      expect(getCurrentSystemPrompt(request.messages)).toBe(outcome.prompt?.text);
      expect(getCurrentSystemPrompt(request.messages)).not.toContain('expert coding assistant');
      expect(
        getCurrentTools(request.messages)
          .map((tool) => tool.name)
          .sort(),
      ).toEqual(['apply_patch', 'edit', 'find', 'grep', 'ls', 'read', 'write']);
      host.dispose();
    });

    it('reuses the assembled prompt while its input is the same, and assembles it again (with the new day) when the settings or the tools change', async () => {
      let day = new Date('2026-03-01T10:00:00Z');
      const { host, faux, requests } = await createFauxHost({ now: () => day });
      const inherit = { model: null, thinkingLevel: null, tools: null };
      faux.setResponses(Array.from({ length: 5 }, () => reply('ok')));
      const first = await host.send('one', defaults);
      const second = await host.send('two', defaults);
      expect(second.prompt).toBe(first.prompt);
      const appended = await host.send('three', { ...defaults, append: 'Answer in French.' });
      expect(appended.prompt?.text).toContain('Answer in French.');
      day = new Date('2026-03-02T10:00:00Z');
      const nextDay = await host.send('four', defaults);
      expect(nextDay.prompt?.text).toContain('2026-03-02');
      expect(nextDay.prompt?.text).not.toContain('Answer in French.');
      const fewer = await host.send('five', defaults, {
        modelSettings: { ...inherit, tools: ['read'] },
      });
      expect(nextDay.prompt?.text).toContain('<tool name="apply_patch">');
      expect(fewer.prompt?.text).toContain('<tool name="read">');
      expect(fewer.prompt?.text).not.toContain('<tool name="apply_patch">');
      // Every request carried the prompt of its own run.
      const sent = requests.map((request) => getCurrentSystemPrompt(request.messages));
      expect(sent).toEqual([first, second, appended, nextDay, fewer].map((o) => o.prompt?.text));
      host.dispose();
    });

    it('keeps the prompt across midnight and tells the model the new day once, in a message before the user’s', async () => {
      let now = new Date('2026-03-01T23:50:00Z');
      const { host, faux, requests } = await createFauxHost({ now: () => now });
      faux.setResponses(Array.from({ length: 3 }, () => reply('ok')));
      const first = await host.send('one', defaults);
      now = new Date('2026-03-02T00:10:00Z');
      const second = await host.send('two', defaults);
      const third = await host.send('three', defaults);
      expect(second.prompt).toBe(first.prompt);
      expect(third.prompt).toBe(first.prompt);
      expect(first.prompt?.text).toContain('2026-03-01');
      const [one, two, three] = requests as [
        TranscriptContext,
        TranscriptContext,
        TranscriptContext,
      ];
      // Each request repeats the one before it whole (as sent: Pi's timestamps are not), then appends.
      const sent = (messages: TranscriptContext['messages']) =>
        JSON.stringify(messages, (key, value) => (key === 'timestamp' ? undefined : value));
      expect(sent(two.messages.slice(0, one.messages.length))).toBe(sent(one.messages));
      expect(sent(three.messages.slice(0, two.messages.length))).toBe(sent(two.messages));
      const notice = "Today's date is now 2026-03-02.";
      expect(userTexts(two).slice(-2)).toEqual([notice, 'two']);
      expect(userTexts(three).filter((text) => text === notice)).toHaveLength(1);
      expect(userTexts(one)).not.toContain(notice);
      host.dispose();
    });

    it('sends an explicitly empty prompt as empty, never the SDK default', async () => {
      const { host, faux, requests, space } = await createFauxHost();
      faux.setResponses([reply('ok')]);
      const empty: PromptSettings = {
        base: '',
        append: '',
        projectInstructions: false,
        skillCatalog: false,
        environment: false,
        learningContext: false,
        fileChanges: 'off',
        citations: false,
      };
      const outcome = await host.send('hi', empty);
      const prompt = getCurrentSystemPrompt((requests[0] as TranscriptContext).messages);
      // Every source is off: only the tools section is left, describing the enabled tools (R35).
      const active = new Set(host.session.getActiveToolNames());
      const tools = host.session
        .getAllTools()
        .filter((tool) => active.has(tool.name))
        .map((tool) => ({
          name: tool.name,
          description: tool.description,
          snippet: host.session.getToolDefinition(tool.name)?.promptSnippet,
          promptGuidelines: [...(tool.promptGuidelines ?? [])],
        }));
      const expected = assembleSystemPrompt({
        settings: empty,
        environment: { spaceRoot: space, spaceName: 'space', platform: 'none', date: 'none' },
        skills: [],
        projectInstructions: { trusted: false, files: [] },
        tools,
      });
      expect(Object.keys(expected.sections)).toEqual(['tools']);
      expect(prompt).toBe(expected.text);
      expect(prompt).toBe(outcome.prompt?.text);
      expect(
        outcome.prompt?.report.filter((section) => section.included).map((section) => section.name),
      ).toEqual(['tools']);
      // Pi's own default sections, as Pi persisted them in the raw session: none of Pi's text is
      // sent (the tools' own guideline lines, which Pi lists too, belong to the tools section).
      const piSections = getCurrentSystemMessage(
        host.session.sessionManager
          .getEntries()
          .flatMap((entry) => (entry.type === 'message' ? [entry.message] : [])),
      )?.sections;
      expect(piSections?.preamble).toContain('expert coding assistant');
      const piLines = Object.values(piSections ?? {})
        .flatMap((text) => (text ?? '').split('\n'))
        .map((line) => line.trim())
        .filter((line) => line.length >= 20)
        .filter((line) => !tools.some((tool) => tool.promptGuidelines.includes(line.slice(2))));
      expect(piLines.length).toBeGreaterThan(5);
      for (const line of piLines) expect(prompt).not.toContain(line);
      host.dispose();
    });

    it('keeps the prompt when another extension forces its own system prompt', async () => {
      const hostile: ExtensionFactory = (pi) => {
        pi.on('before_agent_start', () => ({ systemPrompt: 'HOSTILE PROMPT' }));
        pi.on('context_with_system', (event) => ({
          messages: event.messages.map((message) =>
            message.role === 'system'
              ? { ...message, content: 'HOSTILE CWS', sections: {} }
              : message,
          ),
        }));
      };
      const { host, faux, requests } = await createFauxHost({
        extensions: [{ name: 'hostile', factory: hostile }],
      });
      faux.setResponses([toolCall('read', { path: 'missing.md' }), reply('done')]);
      const outcome = await host.send('hi', { ...defaults, append: 'REPA APPEND' });
      expect(requests).toHaveLength(2);
      for (const request of requests) {
        const prompt = getCurrentSystemPrompt(request.messages);
        expect(prompt).toBe(outcome.prompt?.text);
        expect(prompt).toContain('REPA APPEND');
        expect(prompt).not.toContain('HOSTILE');
      }
      host.dispose();
    });
  });

  describe('turns Pi starts without a run', () => {
    it('still carry Repa’s prompt (context_with_system covers an idle custom message)', async () => {
      const { host, faux, requests } = await createFauxHost();
      faux.setResponses([reply('seen')]);
      await host.session.sendCustomMessage(
        { customType: 'test.note', content: 'a note from an extension', display: false },
        { triggerTurn: true },
      );
      await host.session.waitForIdle();
      expect(requests).toHaveLength(1);
      const prompt = getCurrentSystemPrompt((requests[0] as TranscriptContext).messages);
      expect(prompt.startsWith('You are Repa')).toBe(true);
      expect(prompt).not.toContain('expert coding assistant');
      host.dispose();
    });

    it('reports errors thrown by extension handlers', async () => {
      const errors: string[] = [];
      const broken: ExtensionFactory = (pi) => {
        pi.on('before_agent_start', () => {
          throw new Error('broken extension');
        });
      };
      const { host, faux } = await createFauxHost({
        extensions: [{ name: 'broken', factory: broken }],
        onExtensionError: (error) => errors.push(error.error),
      });
      faux.setResponses([reply('fine')]);
      expect((await host.send('hi', defaults)).status).toBe('succeeded');
      expect(errors).toEqual(['broken extension']);
      host.dispose();
    });
  });

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

  describe('tool errors', () => {
    it('reach run events with their Repa code and fix', async () => {
      const { host, faux, space } = await createFauxHost();
      writeFileSync(join(space, 'unread.md'), 'never read\n');
      faux.setResponses([toolCall('write', { path: 'unread.md', content: 'blind' }), reply('ok')]);
      const events: RunEvent[] = [];
      await host.send('overwrite', defaults, { onEvent: (event) => events.push(event) });
      const end = events.find((event) => event.type === 'tool-end');
      expect(end).toMatchObject({ isError: true, error: { code: 'read_required' } });
      expect(readFileSync(join(space, 'unread.md'), 'utf8')).toBe('never read\n');
      host.dispose();
    });
  });

  describe('direct extension model calls (R35, documented limit)', () => {
    it('are not routed through Repa’s prompt hooks', async () => {
      let direct: unknown;
      const caller: ExtensionFactory = (pi) => {
        pi.registerCommand('ask', {
          description: 'asks the model directly',
          handler: async (_args, ctx) => {
            const model = ctx.model;
            if (!model) return;
            direct = await ctx.modelRegistry.complete(model, {
              systemPrompt: 'EXTENSION OWN PROMPT',
              messages: [{ role: 'user', content: 'q', timestamp: Date.now() }],
            });
          },
        });
      };
      const { host, faux, requests } = await createFauxHost({
        extensions: [{ name: 'caller', factory: caller }],
      });
      faux.setResponses([reply('first'), reply('direct answer')]);
      await host.send('hi', defaults);
      await host.session.prompt('/ask');
      expect(direct).toBeDefined();
      expect(getCurrentSystemPrompt((requests.at(-1) as TranscriptContext).messages)).toBe(
        'EXTENSION OWN PROMPT',
      );
      host.dispose();
    });
  });
});
