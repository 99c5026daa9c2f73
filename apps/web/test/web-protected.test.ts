/// <reference lib="dom" />
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type OpenAiEndpoint, startOpenAiEndpoint } from '@repa/fixtures';
import { createSandbox } from '@repa/test-kit';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  lastTurnReaches,
  openPage,
  STEP_MS,
  sendMessage,
  startWebRig,
  type WebRig,
} from './web-harness.js';

// The page shows a save the store refused as a protected place (design R69) as refused, live and
// from history, never as a save.
const sandbox = createSandbox();
let model: OpenAiEndpoint;
/** The endpoint's model, scripted by each test: a model steered by what it read. */
const SCRIPTED_MODEL = 'test/plain';
const DONE = { kind: 'text', text: 'Done.' } as const;
let rig: WebRig;
let page: Page;

beforeAll(async () => {
  model = await startOpenAiEndpoint([DONE]);
  model.configure(sandbox.agentDir);
  rig = await startWebRig(sandbox, { model: SCRIPTED_MODEL });
  page = rig.page;
  await openPage(page, rig.url);
});

afterAll(async () => {
  await rig.close();
  await model.close();
  rmSync(sandbox.root, { recursive: true, force: true });
});

/** The state text of each tool shown in the conversation, with whether it is marked refused. */
const toolStates = () =>
  page.$$eval('.tool', (tools) =>
    tools.map((tool) => ({
      refused: tool.classList.contains('tool-refused'),
      state: tool.querySelector('.tool-state')?.textContent?.trim(),
      error: tool.querySelector('.error-text')?.textContent ?? '',
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
    await sendMessage(page, 'Install the helper the PDF describes.');
    await lastTurnReaches(page, 'succeeded');
    const live = await toolStates();
    expect(live).toEqual([
      {
        refused: true,
        state: 'refused: protected, nothing written',
        error: expect.stringContaining('yourself outside Repa'),
      },
    ]);
    expect(existsSync(join(sandbox.space, '.pi'))).toBe(false);
    await page.reload();
    await page.waitForSelector('.tool-refused', { timeout: STEP_MS });
    expect((await toolStates()).map((tool) => tool.state)).toEqual([
      'refused: protected, nothing written',
    ]);
  });
});
