import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fauxAssistantMessage, fauxToolCall, getCurrentSystemPrompt } from '@earendil-works/pi-ai';
import { ContentStore, markChangedSince } from '@repa/content';
import { TIDES_NOTE as TIDES } from '@repa/fixtures';
import type { PromptSettings } from '@repa/protocol';
import { DEFAULT_PROMPT_SETTINGS } from '@repa/settings';
import { describe, expect, it } from 'vitest';
import { readSessionHistory } from '../src/index.js';
import { createFauxHost } from '../src/testing/index.js';

const defaults: PromptSettings = { ...DEFAULT_PROMPT_SETTINGS };

describe('PiConversationHost citations (spec R60)', () => {
  it('checks the final answer against what the run read, keeps the result, and marks later edits', async () => {
    const { host, faux, space, appDirectory } = await createFauxHost();
    writeFileSync(join(space, 'tides.md'), `${TIDES}\n`);
    writeFileSync(join(space, 'other.md'), 'Never read.\n');
    const answer = [
      'The Moon does most of it [tides.md:2 "caused mainly by the Moon"];',
      'the Sun helps [tides.md:3-4 "smaller pull, so spring"] but not here [tides.md:5 "the Moon"].',
      'Past the end [tides.md:7-9], never read [other.md:1], missing [gone.md:1].',
    ].join(' ');
    faux.setResponses([
      fauxAssistantMessage(fauxToolCall('read', { path: 'tides.md' }), { stopReason: 'toolUse' }),
      fauxAssistantMessage(answer),
    ]);
    const outcome = await host.send('What causes tides?', defaults);
    expect(outcome.status).toBe('succeeded');
    expect(outcome.output).toBe(answer);
    const statuses = outcome.citations?.map(({ text, status }) => [text, status]);
    expect(statuses).toEqual([
      ['[tides.md:2 "caused mainly by the Moon"]', 'verified'],
      ['[tides.md:3-4 "smaller pull, so spring"]', 'verified'],
      ['[tides.md:5 "the Moon"]', 'quote_not_found'],
      ['[tides.md:7-9]', 'range_outside'],
      ['[other.md:1]', 'not_read'],
      ['[gone.md:1]', 'unknown_document'],
    ]);
    expect(outcome.citations?.[0]).toMatchObject({
      target: 'tides.md',
      excerpt: 'Tides are caused mainly by the Moon.',
    });
    expect(outcome.prompt?.report.find((section) => section.name === 'citations')).toMatchObject({
      included: true,
    });

    const { items: history } = await readSessionHistory(space, host.sessionId, appDirectory);
    const shown = history.find((item) => item.kind === 'assistant' && item.text === answer);
    expect(shown?.citations?.map((citation) => citation.status)).toEqual(
      statuses?.map(([, status]) => status),
    );
    expect(shown?.citations?.some((citation) => citation.changedSince)).toBe(false);

    writeFileSync(join(space, 'tides.md'), `${TIDES}\nEdited after the run.\n`);
    const { items: later } = await readSessionHistory(space, host.sessionId, appDirectory);
    const edited = later.find((item) => item.kind === 'assistant' && item.text === answer);
    expect(edited?.citations?.[0]?.changedSince).toBe(true);
    expect(edited?.citations?.[4]?.changedSince).toBeUndefined();
    const store = await ContentStore.open({ root: space, appDirectory });
    const fromRecord = await markChangedSince(store, outcome.citations ?? []);
    expect(fromRecord.map((citation) => citation.changedSince === true)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
    ]);
    host.dispose();
  });

  it('asks for citations in a named prompt section that prompts.citations turns off', async () => {
    const { host, faux, requests } = await createFauxHost();
    faux.setResponses([fauxAssistantMessage('No citations here [10:30].')]);
    const outcome = await host.send('hi', { ...defaults, citations: false });
    expect(outcome.prompt?.report.find((section) => section.name === 'citations')).toMatchObject({
      included: false,
      reason: 'off',
    });
    expect(getCurrentSystemPrompt(requests[0]?.messages ?? [])).not.toContain('<citations>');
    expect(outcome.citations).toBeUndefined();
    faux.setResponses([fauxAssistantMessage('ok')]);
    await host.send('again', defaults);
    expect(getCurrentSystemPrompt(requests[1]?.messages ?? [])).toContain('<citations>');
    host.dispose();
  });
});
