/// <reference lib="dom" />
// Spec R108: the composer's tutor-mode switch on a real daemon (the offline responder), at 1280 px
// and 390 px: switched on, the next reply is a question and a hint; switched off, the answer.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { SettingItemView } from '@repa/protocol';
import { createSandbox, repaJson, writeFiles } from '@repa/test-kit';
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
const QUESTION = 'What makes the tides? See notes/moon.md';
let rig: WebRig;
let page: Page;

/** The text of the last live turn's reply once it succeeded (not its citation chips). */
async function lastReply(): Promise<string> {
  await lastTurnReaches(page, 'succeeded');
  return page.$$eval('.live .turn:last-child .markdown', (nodes) =>
    nodes.map((node) => node.textContent ?? '').join('\n'),
  );
}

/** Clicks the switch and waits until the page says the mode it switched to. */
async function switchTutor(on: boolean): Promise<void> {
  await page.click('#tutor-mode');
  await page.waitForFunction(
    (words) =>
      document.querySelector('.tutor-toggle [role="status"]')?.textContent?.includes(words),
    { timeout: STEP_MS },
    on ? 'Tutor mode is on for this session' : 'Tutor mode is off',
  );
}

/** `study.mode` of the space's latest session, as `repa settings get` reads it. */
async function sessionMode() {
  const { json } = await repaJson<{ items: SettingItemView[] }>(sandbox, [
    'settings',
    'get',
    'study.mode',
  ]);
  return json.items[0];
}

beforeAll(async () => {
  writeFiles(sandbox.space, {
    'notes/moon.md': '# The Moon\n\nThe Moon pulls the oceans toward it, which makes the tides.\n',
  });
  rig = await startWebRig(sandbox);
  page = rig.page;
  await openPage(page, rig.url);
});

afterAll(async () => {
  await rig?.close();
  rmSync(sandbox.root, { recursive: true, force: true });
});

describe('the composer’s tutor mode switch', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: on, the reply asks back with a cited hint; off, it answers`, async () => {
      await page.setViewport({ width, height: width > 500 ? 900 : 844 });
      await openPage(page, rig.url);
      await switchTutor(true);
      expect(await sessionMode()).toMatchObject({ value: 'tutor', source: 'session' });
      await sendMessage(page, QUESTION);
      const tutored = await lastReply();
      expect(tutored).toContain('Before I answer: what do you think');
      expect(tutored).toContain('notes/moon.md:3');
      expect(tutored).not.toContain('oceans');
      await page.screenshot({ path: join(SHOTS, `web-tutor-${width}.png`) as `${string}.png` });
      await switchTutor(false);
      expect(await sessionMode()).toMatchObject({ value: 'answer', source: 'session' });
      await sendMessage(page, QUESTION);
      expect(await lastReply()).toContain('From notes/moon.md: The Moon pulls the oceans');
    });
  }
});
