// Spec R91: the real Pi 0.87.1 SDK with Pi's faux provider; every assertion about what the model
// was told goes through Pi's own transcript helpers (`getCurrentSystemPrompt`, `getCurrentTools`).
// The prompt and tools Repa owns; the background, compaction and file changes Repa adds to the
// history are in pi-context-messages.test.ts.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  getCurrentSystemMessage,
  getCurrentSystemPrompt,
  getCurrentTools,
  type TranscriptContext,
} from '@earendil-works/pi-ai';
import type { ExtensionFactory } from '@earendil-works/pi-coding-agent';
import { assembleSystemPrompt } from '@repa/prompt';
import type { PromptSettings, RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { createFauxHost } from '../src/testing/index.js';
import { reply, toolCall } from './faux-replies.js';
import { userTexts } from './transcript-text.js';

const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };

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
