/// <reference lib="dom" />
// Spec R37: the page shows a save waiting for the learner inline, with its diff, and answers it.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type EndpointReply, type OpenAiEndpoint, startOpenAiEndpoint } from '@repa/fixtures';
import { createSandbox, repa } from '@repa/test-kit';
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

const sandbox = createSandbox();
/** Where the pictures go (`REPA_SHOT_DIR` keeps them; else the sandbox). */
const SHOTS = process.env.REPA_SHOT_DIR ?? sandbox.root;
let model: OpenAiEndpoint;
let rig: WebRig;
let page: Page;
const write = (path: string, content: string): EndpointReply => ({
  kind: 'tools',
  calls: [{ name: 'write', arguments: { path, content } }],
});

/** Waits for the last turn's approval request `approvalId` to wait with its buttons. */
async function waiting(approvalId: string): Promise<void> {
  await page.waitForSelector(
    `.live .turn:last-child .approval[data-approval="${approvalId}"] button.approve`,
    { timeout: STEP_MS },
  );
}

beforeAll(async () => {
  model = await startOpenAiEndpoint([{ kind: 'text', text: 'Done.' }]);
  model.configure(sandbox.agentDir);
  rig = await startWebRig(sandbox, { model: 'test/plain' });
  page = rig.page;
  const set = await repa(sandbox, [
    'settings',
    'set',
    'tools.edits',
    'ask',
    '--level',
    'application',
  ]);
  expect(set.code, set.stderr).toBe(0);
  await openPage(page, rig.url);
});

afterAll(async () => {
  await rig?.close();
  await model?.close();
  rmSync(sandbox.root, { recursive: true, force: true });
});

describe('repa web with tools.edits ask', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: shows each save inline with its diff; Approve writes it, Refuse with a reason writes nothing`, async () => {
      await page.setViewport({ width, height: width > 500 ? 900 : 844 });
      const [kept, dropped] = [`notes/kept-${width}.md`, `notes/dropped-${width}.md`];
      model.replies.splice(
        0,
        model.replies.length,
        write(kept, '# Kept\n'),
        write(dropped, '# Dropped\n'),
        { kind: 'text', text: 'Done.' },
      );
      await sendMessage(page, 'Write two notes.');
      await waiting('approval-1');
      const shown = await page.$eval(
        '.live .turn:last-child .approval[data-approval="approval-1"]',
        (node) => node.textContent ?? '',
      );
      expect(shown).toContain(`wants to change ${kept}`);
      expect(shown).toContain('+# Kept');
      expect(existsSync(join(sandbox.space, kept))).toBe(false);
      await page.screenshot({ path: join(SHOTS, `web-approval-${width}.png`) as `${string}.png` });
      await page.click(
        '.live .turn:last-child .approval[data-approval="approval-1"] button.approve',
      );
      await waiting('approval-2');
      expect(readFileSync(join(sandbox.space, kept), 'utf8')).toBe('# Kept\n');
      const second = '.live .turn:last-child .approval[data-approval="approval-2"]';
      await page.type(`${second} .approval-reason`, 'One note is enough.');
      await page.click(`${second} button.refuse`);
      await lastTurnReaches(page, 'succeeded');
      const answered = await page.$$eval('.live .turn:last-child .approval', (nodes) =>
        nodes.map((node) => [node.className, node.textContent ?? '']),
      );
      expect(answered[0]?.[0]).toContain('approval-approved');
      expect(answered[1]?.[0]).toContain('approval-refused');
      expect(answered[1]?.[1]).toContain('Refused: One note is enough.');
      expect(existsSync(join(sandbox.space, dropped))).toBe(false);
      expect(JSON.stringify(model.requests.at(-1)?.messages)).toContain('One note is enough.');
      await page.screenshot({
        path: join(SHOTS, `web-approval-${width}-answered.png`) as `${string}.png`,
      });
    });
  }
});
