// Spec R92: sessions written by every released Pi Repa shipped on (0.84.3, 0.87.1) are continued by
// the host on the installed Pi, reopened, and keep every old entry and their original bytes as a
// prefix. `npm run pi:probe` also points REPA_PI_PROBE_SESSION at a session written by a probed
// release, to check that the pinned Pi still reads it (a user may downgrade).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fauxAssistantMessage, getCurrentSystemPrompt } from '@earendil-works/pi-ai';
import { SessionManager } from '@earendil-works/pi-coding-agent';
import { writeLearningContext } from '@repa/context';
import { fixturePath } from '@repa/fixtures';
import type { PromptSettings } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { createFauxHost } from '../src/testing/index.js';

const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };

const entriesOf = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; id: string; message?: { role: string } });

describe('Pi session compatibility', () => {
  it.each(['0.84.3', '0.87.1'])(
    'continues a Pi %s session, keeping its bytes as a prefix and its entries intact',
    async (version) => {
      const fixture = fixturePath('sessions', `pi-session-${version}.jsonl`);
      const original = readFileSync(fixture);
      const space = join(mkdtempSync(join(tmpdir(), 'repa-compat-')), 'space');
      mkdirSync(join(space, '.repa', 'sessions'), { recursive: true });
      const copy = join(space, '.repa', 'sessions', 'continued.jsonl');
      copyFileSync(fixture, copy);
      const { host, faux, requests } = await createFauxHost({
        space,
        sessionFile: copy,
        trusted: true,
      });
      await writeLearningContext(space, {
        body: 'Photosynthesis, revised.',
        sources: ['notes/p.md'],
      });
      faux.setResponses([fauxAssistantMessage('Light, water and CO2 in; glucose and oxygen out.')]);
      const outcome = await host.send('Once more, briefly?', defaults);
      expect(outcome.status).toBe('succeeded');
      const file = host.sessionFile;
      host.dispose();

      // The old summary and kept exchange reached the model, under Repa's prompt.
      const request = requests[0];
      expect(getCurrentSystemPrompt(request?.messages ?? [])).toBe(outcome.prompt?.text);
      const texts = JSON.stringify(request?.messages);
      expect(texts).toContain('The user is studying photosynthesis');
      expect(texts).toContain('Photosynthesis, revised.');

      const continued = readFileSync(file);
      expect(continued.subarray(0, original.length).equals(original)).toBe(true);
      const oldEntries = entriesOf(original.toString('utf8'));
      const reopened = SessionManager.open(file);
      for (const entry of oldEntries.slice(1)) {
        expect(reopened.getEntry(entry.id)).toEqual(entry);
      }
      const added = entriesOf(continued.toString('utf8')).slice(oldEntries.length);
      expect(
        added.map((entry) => entry.type + (entry.message ? `:${entry.message.role}` : '')),
      ).toEqual(['custom_message', 'message:system', 'message:user', 'message:assistant']);
      expect(reopened.getLeafId()).toBe(added.at(-1)?.id);
    },
  );

  it('writes sessions that the stock Pi 0.87.1 SessionManager reopens intact', async () => {
    const { host, faux } = await createFauxHost();
    faux.setResponses([fauxAssistantMessage('one'), fauxAssistantMessage('two')]);
    await host.send('first', defaults);
    await host.send('second', defaults);
    const file = host.sessionFile;
    const live = host.session.sessionManager.getEntries();
    host.dispose();
    const reopened = SessionManager.open(file);
    expect(reopened.getEntries()).toEqual(live);
    expect(reopened.buildSessionContext().messages.filter((m) => m.role === 'user')).toHaveLength(
      2,
    );
  });

  const probed = process.env.REPA_PI_PROBE_SESSION;
  it.runIf(probed !== undefined)('reopens a session written by the probed Pi release', () => {
    const text = readFileSync(probed as string, 'utf8');
    const entries = entriesOf(text);
    const reopened = SessionManager.open(probed as string);
    for (const entry of entries.slice(1)) expect(reopened.getEntry(entry.id)).toEqual(entry);
    expect(reopened.buildSessionContext().messages.map((m) => m.role)).toContain('assistant');
    // Reading never rewrote the file.
    expect(readFileSync(probed as string, 'utf8')).toBe(text);
  });
});
