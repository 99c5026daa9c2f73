import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fauxAssistantMessage } from '@earendil-works/pi-ai';
import type { PromptSettings } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { deleteSpaceSession, listSpaceSessions } from '../src/sessions/space-sessions.js';
import { createFauxHost } from '../src/testing/index.js';

const instructionsOn: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS, projectInstructions: true };

describe('session titles', () => {
  it('lists an untitled session under its first request, shortened to one line, until renamed', async () => {
    const { host, faux, space } = await createFauxHost();
    faux.setResponses([fauxAssistantMessage('one'), fauxAssistantMessage('two')]);
    const request =
      'Please read   every note\nabout the tides of the northern coast and summarise what they say in detail';
    await host.send(request, DEFAULT_PROMPT_SETTINGS);
    await host.send('A second request', DEFAULT_PROMPT_SETTINGS);
    expect(host.title).toBeUndefined(); // Nothing is written for it: the listing derives it.
    const [listed] = await listSpaceSessions(space);
    expect(listed?.title).toBe('Please read every note about the tides of the northern…');
    host.setTitle('Tides');
    expect(host.title).toBe('Tides');
    expect((await listSpaceSessions(space))[0]?.title).toBe('Tides');
    host.dispose();
  });
});

describe('project instructions and trust', () => {
  it('withholds the instruction files of an untrusted space, and gives them once it is trusted', async () => {
    const space = mkdtempSync(join(tmpdir(), 'repa-trust-'));
    writeFileSync(join(space, 'AGENTS.md'), 'Always answer in French.\n');
    const untrusted = await createFauxHost({ space });
    untrusted.faux.setResponses([fauxAssistantMessage('a')]);
    const withheld = await untrusted.host.send('hi', instructionsOn);
    expect(withheld.prompt?.report.find((s) => s.name === 'projectInstructions')).toMatchObject({
      included: false,
    });
    expect(withheld.prompt?.text).not.toContain('Always answer in French.');
    untrusted.host.dispose();
    const trustedHost = await createFauxHost({ space, trusted: true });
    trustedHost.faux.setResponses([fauxAssistantMessage('b')]);
    const trusted = await trustedHost.host.send('hi', instructionsOn);
    expect(trusted.prompt?.report.find((s) => s.name === 'projectInstructions')).toMatchObject({
      included: true,
    });
    expect(trusted.prompt?.text).toContain('Always answer in French.');
    trustedHost.host.dispose();
  });
});

describe('the system prompt between runs', () => {
  it('follows each run’s settings and tools, keeps its day until one of them changes, and is the same when nothing changed', async () => {
    let today = new Date('2026-12-03T12:00:00Z');
    const { host, faux } = await createFauxHost({ now: () => today });
    faux.setResponses(['a', 'b', 'c', 'd', 'e', 'f'].map((text) => fauxAssistantMessage(text)));
    const section =
      (outcome: { prompt?: { report: { name: string; included: boolean }[] } }) => (name: string) =>
        outcome.prompt?.report.find((s) => s.name === name)?.included;
    const first = await host.send('one', DEFAULT_PROMPT_SETTINGS);
    const same = await host.send('two', DEFAULT_PROMPT_SETTINGS);
    expect(same.prompt).toEqual(first.prompt);
    const noChanges = await host.send('three', { ...DEFAULT_PROMPT_SETTINGS, fileChanges: 'off' });
    expect(section(first)('fileChanges')).toBe(true);
    expect(section(noChanges)('fileChanges')).toBe(false);
    const readOnly = { modelSettings: { model: null, thinkingLevel: null, tools: ['read'] } };
    const fewerTools = await host.send('four', DEFAULT_PROMPT_SETTINGS, readOnly);
    expect(first.prompt?.text).toContain('grep');
    expect(fewerTools.prompt?.text).not.toContain('grep');
    expect(fewerTools.prompt?.text).toContain('2026-12-03');
    today = new Date('2026-12-04T12:00:00Z');
    // A new day alone keeps the prompt (the provider's cached prefix); a message tells the day.
    const nextDay = await host.send('five', DEFAULT_PROMPT_SETTINGS, readOnly);
    expect(nextDay.prompt).toEqual(fewerTools.prompt);
    // A change assembles it again, with the new day.
    const changed = await host.send(
      'six',
      { ...DEFAULT_PROMPT_SETTINGS, fileChanges: 'off' },
      readOnly,
    );
    expect(changed.prompt?.text).toContain('2026-12-04');
    expect(changed.prompt?.text).not.toContain('2026-12-03');
    host.dispose();
  });
});

describe('deleteSpaceSession', () => {
  it('removes the session file so the space no longer lists it', async () => {
    const { host, faux, space } = await createFauxHost();
    faux.setResponses([fauxAssistantMessage('ok')]);
    await host.send('hello', DEFAULT_PROMPT_SETTINGS);
    const file = host.sessionFile;
    host.dispose();
    await deleteSpaceSession(space, host.sessionId);
    expect(existsSync(file)).toBe(false);
    expect(await listSpaceSessions(space)).toEqual([]);
    await expect(deleteSpaceSession(space, host.sessionId)).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
