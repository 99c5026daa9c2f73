// Two sessions of one space in one process share the space's content store: their saves are
// checked against each other, and a run's saves are named after the run.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type AssistantMessage, fauxAssistantMessage } from '@earendil-works/pi-ai';
import type { PromptSettings, RunEvent } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { createFauxHost } from '../src/testing/index.js';
import { toolCall } from './faux-replies.js';

const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };

describe('two hosts of one space in one process', () => {
  it('let exactly one of a write and an apply_patch from the same version win; saves are named <runId>-<n>', async () => {
    const first = await createFauxHost();
    writeFileSync(join(first.space, 'a.md'), 'base\n');
    const second = await createFauxHost({ space: first.space, appDirectory: first.appDirectory });
    // Both agents have read a.md before either saves.
    let arrived = 0;
    let go!: () => void;
    const bothRead = new Promise<void>((resolve) => (go = resolve));
    const afterBothRead = (message: AssistantMessage) => async () => {
      arrived += 1;
      if (arrived === 2) go();
      await bothRead;
      return message;
    };
    first.faux.setResponses([
      toolCall('read', { path: 'a.md' }),
      afterBothRead(toolCall('write', { path: 'a.md', content: 'write\n' })),
      fauxAssistantMessage('done'),
    ]);
    second.faux.setResponses([
      toolCall('read', { path: 'a.md' }),
      afterBothRead(
        toolCall('apply_patch', {
          input: '*** Begin Patch\n*** Update File: a.md\n@@\n-base\n+patch\n*** End Patch',
        }),
      ),
      fauxAssistantMessage('done'),
    ]);
    const events: [RunEvent[], RunEvent[]] = [[], []];
    await Promise.all([
      first.host.send('write it', defaults, {
        onEvent: (event) => events[0].push(event),
        runId: 'run-one',
      }),
      second.host.send('patch it', defaults, {
        onEvent: (event) => events[1].push(event),
        runId: 'run-two',
      }),
    ]);
    const saves = events.map((list) =>
      list.find((event) => event.type === 'tool-end' && event.toolName !== 'read'),
    );
    const outcomes = saves.map((event) =>
      event?.type === 'tool-end' && !event.isError
        ? 'saved'
        : event?.type === 'tool-end'
          ? event.error?.code
          : 'none',
    );
    expect([...outcomes].sort()).toEqual(['saved', 'stale_version']);
    const winner = outcomes[0] === 'saved' ? 0 : 1;
    expect(readFileSync(join(first.space, 'a.md'), 'utf8')).toBe(
      winner === 0 ? 'write\n' : 'patch\n',
    );
    expect(saves[winner]).toMatchObject({
      receipts: [{ operationId: winner === 0 ? 'run-one-1' : 'run-two-1', target: 'a.md' }],
    });
    first.host.dispose();
    second.host.dispose();
  });
});
