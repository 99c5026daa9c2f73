import { readFileSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fauxAssistantMessage, type TranscriptContext } from '@earendil-works/pi-ai';
import { SessionManager } from '@earendil-works/pi-coding-agent';
import type { PromptSettings, RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { createFauxHost } from '../src/testing/index.js';
import { toolCall } from './faux-replies.js';
import { textOf } from './transcript-text.js';

const settings: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS, learningContext: false };

const NOTES = {
  'glycolysis.md': '# Glycolysis\n\nNet gain of 4 ATP.\n',
  'old/atp.md': '# ATP\n\nThe energy currency.\n',
};
const PATCH = [
  '*** Begin Patch',
  '*** Update File: old/atp.md',
  '*** Move to: energy/atp.md',
  '@@',
  '-The energy currency.',
  '+The energy currency of the cell.',
  '*** Add File: summary.md',
  '+Two ATP net.',
  '*** End Patch',
].join('\n');

describe('PiConversationHost.rewind', () => {
  it("restores a run's files and, with the conversation, continues from before the run; Pi's file keeps both branches", async () => {
    const { host, faux, requests, space } = await createFauxHost();
    for (const [path, text] of Object.entries(NOTES)) {
      await mkdir(join(space, path, '..'), { recursive: true });
      writeFileSync(join(space, path), text);
    }
    faux.setResponses([fauxAssistantMessage('Hello.')]);
    await host.send('hello', settings, { runId: 'run0' });
    faux.setResponses([
      toolCall('read', { path: 'glycolysis.md' }),
      toolCall('edit', {
        path: 'glycolysis.md',
        edits: [{ oldText: 'Net gain of 4 ATP.', newText: 'Net gain of 2 ATP.' }],
      }),
      toolCall('read', { path: 'old/atp.md' }),
      toolCall('apply_patch', { input: PATCH }),
      fauxAssistantMessage('Fixed the ATP count, moved the note, wrote a summary.'),
    ]);
    const events: RunEvent[] = [];
    const outcome = await host.send('fix the ATP count', settings, {
      runId: 'run1',
      onEvent: (event) => events.push(event),
    });
    expect(outcome.status).toBe('succeeded');
    const edited = events.find((event) => event.type === 'tool-end' && event.toolName === 'edit');
    expect(edited).toMatchObject({
      diffs: [
        {
          target: 'glycolysis.md',
          added: 1,
          removed: 1,
          diff: expect.stringContaining('-Net gain of 4 ATP.\n+Net gain of 2 ATP.'),
        },
      ],
    });

    const rewind = await host.rewind({
      runId: 'run1',
      rewindId: 'undo1',
      conversation: true,
      fileChanges: 'on-demand',
    });
    expect(rewind.files.map((file) => [file.target, file.status])).toEqual([
      ['glycolysis.md', 'restored'],
      ['old/atp.md', 'restored'],
      ['summary.md', 'restored'],
    ]);
    for (const [path, text] of Object.entries(NOTES)) {
      expect(readFileSync(join(space, path), 'utf8')).toBe(text);
    }
    expect(rewind.told?.sort()).toEqual([
      'energy/atp.md',
      'glycolysis.md',
      'old/atp.md',
      'summary.md',
    ]);

    faux.setResponses([fauxAssistantMessage('We start again from hello.')]);
    await host.send('what now?', settings, { runId: 'run2' });
    const texts = (requests.at(-1) as TranscriptContext).messages
      .filter((message) => message.role !== 'system')
      .map(textOf);
    // The history ends before the rewound run: hello, its answer, the notice, the new request.
    expect(texts.some((text) => text.includes('fix the ATP count'))).toBe(false);
    expect(texts.some((text) => text.includes('Fixed the ATP count'))).toBe(false);
    expect(texts[0]).toBe('hello');
    expect(texts[1]).toBe('Hello.');
    expect(texts[2]).toContain('The learner rewound the changes of an earlier request');
    expect(texts[2]).toContain('- glycolysis.md (modified)');
    expect(texts.slice(3)).toEqual(['what now?']);

    // Pi's file keeps both branches: the run's marker has the old run and the new branch below it.
    const file = SessionManager.open(host.sessionFile);
    const entries = file.getEntries();
    const marker = entries.find(
      (entry) =>
        entry.type === 'custom' &&
        entry.customType === 'repa.run' &&
        (entry.data as { runId: string }).runId === 'run1',
    );
    const children = entries.filter((entry) => entry.parentId === marker?.id);
    expect(children).toHaveLength(2);
    const oldBranch = file.getBranch(
      entries.findLast(
        (entry) =>
          entry.type === 'message' &&
          entry.message.role === 'assistant' &&
          textOf(entry.message as never).includes('Fixed the ATP'),
      )?.id,
    );
    expect(oldBranch.map((entry) => entry.id)).toContain(marker?.id);
    expect(file.getLeafEntry()?.type).toBe('message');
    expect(textOf(file.buildSessionProjection().messages.at(-1) as never)).toBe(
      'We start again from hello.',
    );
    host.dispose();
  });

  it('refuses a conversation rewind of a run it has no place for, before touching a file', async () => {
    const { host, faux, space } = await createFauxHost();
    writeFileSync(join(space, 'a.md'), 'alpha\n');
    faux.setResponses([
      toolCall('read', { path: 'a.md' }),
      toolCall('write', { path: 'a.md', content: 'beta\n' }),
      fauxAssistantMessage('done'),
    ]);
    await host.send('change a', settings, { runId: 'runA' });
    await expect(
      host.rewind({ runId: 'other', rewindId: 'u', conversation: true, fileChanges: 'notice' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(readFileSync(join(space, 'a.md'), 'utf8')).toBe('beta\n');
    const rewind = await host.rewind({ runId: 'runA', rewindId: 'u2', fileChanges: 'notice' });
    expect(rewind.files).toMatchObject([{ target: 'a.md', status: 'restored' }]);
    expect(readFileSync(join(space, 'a.md'), 'utf8')).toBe('alpha\n');
    host.dispose();
  });
});
