/// <reference lib="dom" />
// Spec R108: the composer's tutor-mode switch on a real daemon (the offline responder), at 1280 px
// and 390 px: switched on, the next reply is a question and a hint; switched off, the answer.
import { join } from 'node:path';
import type { SettingItemView } from '@repa/protocol';
import { repaJson, writeFiles } from '@repa/test-kit';
import { describe, expect, it } from 'vitest';
import { lastTurnReaches, openPage, STEP_MS, sendMessage, useWebRig } from './web-harness.js';

const web = useWebRig({
  prepare: (sandbox) =>
    writeFiles(sandbox.space, {
      'notes/moon.md':
        '# The Moon\n\nThe Moon pulls the oceans toward it, which makes the tides.\n',
    }),
});
const QUESTION = 'What makes the tides? See notes/moon.md';

/** The text of the last live turn's reply once it succeeded (not its citation chips). */
async function lastReply(): Promise<string> {
  await lastTurnReaches(web.page, 'succeeded');
  return web.page.$$eval('.live .turn:last-child .markdown', (nodes) =>
    nodes.map((node) => node.textContent ?? '').join('\n'),
  );
}

/** Clicks the switch and waits until the page says the mode it switched to, and shows it. */
async function switchTutor(on: boolean): Promise<void> {
  await web.page.click('#tutor-mode');
  await web.page.waitForFunction(
    (words, checked) =>
      document.querySelector('.tutor-toggle [role="status"]')?.textContent?.includes(words) &&
      (document.querySelector('#tutor-mode') as HTMLInputElement | null)?.checked === checked,
    { timeout: STEP_MS },
    on ? 'Tutor mode is on for this session' : 'Tutor mode is off',
    on,
  );
}

/** `study.mode` of the space's latest session, as `repa settings get` reads it. */
async function sessionMode() {
  const { json } = await repaJson<{ items: SettingItemView[] }>(web.sandbox, [
    'settings',
    'get',
    'study.mode',
  ]);
  return json.items[0];
}

describe('the composer’s tutor mode switch', () => {
  for (const width of [1280, 390]) {
    it(`at ${width} px: on, the reply asks back with a cited hint; off, it answers`, async () => {
      await web.page.setViewport({ width, height: width > 500 ? 900 : 844 });
      await openPage(web.page, web.rig.url);
      await switchTutor(true);
      expect(await sessionMode()).toMatchObject({ value: 'tutor', source: 'session' });
      await sendMessage(web.page, QUESTION);
      const tutored = await lastReply();
      expect(tutored).toContain('Before I answer: what do you think');
      expect(tutored).toContain('notes/moon.md:3');
      expect(tutored).not.toContain('oceans');
      await web.page.screenshot({
        path: join(web.shots, `web-tutor-${width}.png`) as `${string}.png`,
      });
      await switchTutor(false);
      expect(await sessionMode()).toMatchObject({ value: 'answer', source: 'session' });
      await sendMessage(web.page, QUESTION);
      expect(await lastReply()).toContain('From notes/moon.md: The Moon pulls the oceans');
    });
  }
});
