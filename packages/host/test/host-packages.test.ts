import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  fauxAssistantMessage,
  getCurrentSystemPrompt,
  getCurrentTools,
  type TranscriptContext,
} from '@earendil-works/pi-ai';
import { SettingsManager } from '@earendil-works/pi-coding-agent';
import { fixturePath } from '@repa/fixtures';
import type { ModelSettings, RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { createFauxHost } from '../src/testing/index.js';

const flashcards = fixturePath('packages', 'flashcards');
const writeClash = fixturePath('packages', 'write-clash');
const inherit: ModelSettings = { model: null, thinkingLevel: null, tools: null };

/** A space and Pi agent folder whose Pi settings list `packages` at the application or space level. */
function folders(level: { application?: string[]; space?: string[] }) {
  const base = mkdtempSync(join(tmpdir(), 'repa-packages-'));
  const space = join(base, 'space');
  const agentDir = join(base, 'agent');
  mkdirSync(join(space, '.pi'), { recursive: true });
  mkdirSync(agentDir);
  const pi = { compaction: { enabled: false }, retry: { enabled: false } };
  writeFileSync(
    join(agentDir, 'settings.json'),
    JSON.stringify({ ...pi, packages: level.application ?? [] }),
  );
  if (level.space) {
    writeFileSync(join(space, '.pi', 'settings.json'), JSON.stringify({ packages: level.space }));
  }
  return { space, agentDir, piSettings: SettingsManager.create(space, agentDir) };
}

const toolsOf = (request: TranscriptContext | undefined) =>
  getCurrentTools(request?.messages ?? []).map((tool) => tool.name);
const userText = (request: TranscriptContext | undefined) =>
  JSON.stringify(request?.messages.filter((message) => message.role === 'user').at(-1));

describe('Pi packages in a session (spec R75)', () => {
  it('loads an application-level package: its tool only when tools.enabled names it, its skill, its prompt template, Repa keeping the system prompt', async () => {
    const { host, faux, requests } = await createFauxHost({
      ...folders({ application: [flashcards] }),
      trusted: true,
    });
    faux.setResponses([
      fauxAssistantMessage('one'),
      fauxAssistantMessage('two'),
      fauxAssistantMessage('three'),
    ]);
    const events: RunEvent[] = [];
    const first = await host.send('hi', DEFAULT_PROMPT_SETTINGS, {
      modelSettings: inherit,
      onEvent: (event) => events.push(event),
    });
    expect(first.status).toBe('succeeded');
    expect(toolsOf(requests[0])).not.toContain('flashcard_export');
    // Repa's prompt, exactly: the package's skill is in Repa's catalog, nothing else was added.
    expect(getCurrentSystemPrompt(requests[0]?.messages ?? [])).toBe(first.prompt?.text);
    expect(first.prompt?.text).toContain('flashcard-style');
    const report = events.find((event) => event.type === 'prompt-sections');
    expect(report?.type === 'prompt-sections' && report.packageResources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'tool', name: 'flashcard_export', source: flashcards }),
        expect.objectContaining({ kind: 'skill', name: 'flashcard-style', level: 'application' }),
        expect.objectContaining({ kind: 'prompt', name: 'p', source: flashcards }),
      ]),
    );

    const second = await host.send('export', DEFAULT_PROMPT_SETTINGS, {
      modelSettings: { ...inherit, tools: ['read', 'flashcard_export'] },
    });
    expect(second.status).toBe('succeeded');
    expect(toolsOf(requests[1]).sort()).toEqual(['flashcard_export', 'read']);
    expect(getCurrentSystemPrompt(requests[1]?.messages ?? [])).toBe(second.prompt?.text);

    await host.send('/p notes.md', DEFAULT_PROMPT_SETTINGS);
    expect(userText(requests[2])).toContain('Make flashcards from notes.md, one fact per card.');
    expect(host.resourceDiagnostics).toEqual([]);
    host.dispose();
  });

  it('refuses a package whose extension registers write, with a diagnostic; write stays Repa’s', async () => {
    const { host } = await createFauxHost({
      ...folders({ application: [writeClash, flashcards] }),
      trusted: true,
    });
    expect(host.resourceDiagnostics).toEqual([
      expect.objectContaining({
        kind: 'extension',
        severity: 'error',
        path: join(writeClash, 'extensions', 'clash.js'),
        message: expect.stringContaining('registers the tool write'),
      }),
    ]);
    const write = host.session.getAllTools().find((tool) => tool.name === 'write');
    expect(write?.sourceInfo.source).toBe('sdk');
    const extensions = host.packageResources.filter((item) => item.kind === 'extension');
    expect(extensions.map((item) => item.source)).toEqual([flashcards]);
    host.dispose();
  });

  it('loads a space-level package only in a trusted space', async () => {
    const untrusted = await createFauxHost({
      ...folders({ space: [flashcards] }),
      trusted: false,
    });
    expect(untrusted.host.packageResources).toEqual([]);
    expect(untrusted.host.session.getAllTools().map((tool) => tool.name)).not.toContain(
      'flashcard_export',
    );
    untrusted.host.dispose();
    const trusted = await createFauxHost({ ...folders({ space: [flashcards] }), trusted: true });
    expect(trusted.host.packageResources).toContainEqual(
      expect.objectContaining({ kind: 'tool', name: 'flashcard_export', level: 'space' }),
    );
    trusted.host.dispose();
  });
});
