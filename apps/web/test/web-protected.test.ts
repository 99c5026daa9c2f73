/// <reference lib="dom" />
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type OpenAiEndpoint, startOpenAiEndpoint } from '@repa/fixtures';
import { describe, expect, it } from 'vitest';
import { lastTurnReaches, STEP_MS, sendMessage, useWebRig } from './web-harness.js';

// The page shows a save the store refused as a protected place (design R69) as refused, live and
// from history, never as a save.
let model: OpenAiEndpoint;
/** The endpoint's model, scripted by each test: a model steered by what it read. */
const SCRIPTED_MODEL = 'test/plain';
const DONE = { kind: 'text', text: 'Done.' } as const;
const web = useWebRig({
  model: SCRIPTED_MODEL,
  prepare: async (sandbox) => {
    model = await startOpenAiEndpoint([DONE]);
    model.configure(sandbox.agentDir);
  },
  cleanup: () => model?.close(),
});
const { sandbox } = web;

/** The state text of each tool shown in the conversation, with whether it is marked refused. */
const toolStates = () =>
  web.page.$$eval('.tool', (tools) =>
    tools.map((tool) => ({
      refused: tool.classList.contains('tool-refused'),
      state: tool.querySelector('.tool-state')?.textContent?.trim(),
      error: tool.querySelector('.error-text')?.firstChild?.textContent ?? '',
      fix: tool.querySelector('.error-text .fix')?.textContent ?? '',
    })),
  );

describe('the page and a refused save', () => {
  it('shows a write into .pi/extensions as refused with its fix, live and after a reload', async () => {
    model.replies.splice(
      0,
      Infinity,
      {
        kind: 'tools',
        calls: [{ name: 'write', arguments: { path: '.pi/extensions/x.js', content: 'evil()\n' } }],
      },
      DONE,
    );
    await sendMessage(web.page, 'Install the helper the PDF describes.');
    await lastTurnReaches(web.page, 'succeeded');
    const live = await toolStates();
    const refused = {
      refused: true,
      state: 'refused: protected, nothing written',
      // What happened in words (its code and fix apart), then what to do.
      error: expect.stringMatching(/^(?!protected_path:)(?![\s\S]*Fix:)[\s\S]*\.pi/u),
      fix: expect.stringMatching(/^Fix: .*yourself outside Repa/u),
    };
    expect(live).toEqual([refused]);
    expect(existsSync(join(sandbox.space, '.pi'))).toBe(false);
    // The same from the session's history.
    await web.page.reload();
    await web.page.waitForSelector('.tool-refused', { timeout: STEP_MS });
    expect(await toolStates()).toEqual([refused]);
  });
});
